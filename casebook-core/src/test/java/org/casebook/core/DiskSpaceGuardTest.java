package org.casebook.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class DiskSpaceGuardTest {
  private static final long MIB = 1L << 20;

  @Test
  void refusesWritesBelowTheFloorAndTakesThemAgainOnceSpaceIsFreed() throws Exception {
    AtomicLong free = new AtomicLong(500 * MIB);
    DiskSpaceGuard guard = new DiskSpaceGuard(Path.of("data"), 100 * MIB, free::get);
    WriteGate gate = new WriteGate("feed", guard);
    try (WriteGate.Pass pass = gate.enter()) {
      assertThat(guard.low()).isFalse();
    }

    free.set(99 * MIB);
    awaitRecheck();
    assertThatThrownBy(gate::enter)
        .isInstanceOf(InsufficientStorageException.class)
        .hasMessageContaining("data")
        .hasMessageContaining("99 MiB free")
        .hasMessageContaining(DiskSpaceGuard.MIN_FREE_KEY)
        .hasMessageContaining("writes of feed are refused");
    assertThat(ErrorKind.of(catchRefusal(gate)).httpStatus()).isEqualTo(507);
    assertThat(ErrorKind.of(catchRefusal(gate)).exitCode()).isEqualTo(9);

    free.set(101 * MIB);
    awaitRecheck();
    try (WriteGate.Pass pass = gate.enter()) {
      assertThat(guard.low()).isFalse();
    }
  }

  @Test
  void aWriterAlreadyInsideIsNotRefusedHalfWay() throws Exception {
    AtomicLong free = new AtomicLong(500 * MIB);
    DiskSpaceGuard guard = new DiskSpaceGuard(Path.of("data"), 100 * MIB, free::get);
    WriteGate gate = new WriteGate("feed", guard);
    try (WriteGate.Pass outer = gate.enter()) {
      free.set(0);
      awaitRecheck();
      // The second step of a change already admitted goes on: refusing it would half-write it.
      try (WriteGate.Pass inner = gate.enter()) {
        assertThat(guard.low()).isTrue();
      }
    }
    assertThatThrownBy(gate::enter).isInstanceOf(InsufficientStorageException.class);
  }

  @Test
  void refusesWorkThatWouldTakeTheDiskBelowTheFloorBeforeItStarts() {
    AtomicLong free = new AtomicLong(500 * MIB);
    DiskSpaceGuard guard = new DiskSpaceGuard(Path.of("data"), 100 * MIB, free::get);
    guard.require(399 * MIB, "a bulk load of log.json");
    assertThatThrownBy(() -> guard.require(401 * MIB, "a bulk load of log.json"))
        .isInstanceOf(InsufficientStorageException.class)
        .hasMessageContaining("a bulk load of log.json needs about 401 MiB")
        .hasMessageContaining("500 MiB free");
  }

  @Test
  void noneNeverRefuses() {
    DiskSpaceGuard none = DiskSpaceGuard.none();
    assertThat(none.active()).isFalse();
    assertThat(none.low()).isFalse();
    none.checkWrite("feed");
    none.require(Long.MAX_VALUE / 2, "anything");
  }

  private static RuntimeException catchRefusal(WriteGate gate) {
    try (WriteGate.Pass pass = gate.enter()) {
      throw new AssertionError("not refused");
    } catch (InsufficientStorageException e) {
      return e;
    }
  }

  /** The free space is read again only after the recheck period. */
  private static void awaitRecheck() throws InterruptedException {
    Thread.sleep(DiskSpaceGuard.RECHECK_NANOS / 1_000_000 + 20);
  }
}
