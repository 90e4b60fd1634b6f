package org.casebook.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class WriteGateTest {

  /**
   * Eight writers each make two-step changes (a "first" then a "second" count, as a change spanning
   * two tables would); every pause must see both counts equal, i.e. no change half made.
   */
  @Test
  void aPauseSeesEveryChangeWholeUnderManyWriters() throws Exception {
    WriteGate gate = new WriteGate("t");
    AtomicLong first = new AtomicLong();
    AtomicLong second = new AtomicLong();
    AtomicBoolean stop = new AtomicBoolean();
    ExecutorService pool = Executors.newFixedThreadPool(8);
    List<Future<?>> writers = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      writers.add(
          pool.submit(
              () -> {
                while (!stop.get()) {
                  try (WriteGate.Pass pass = gate.enter()) {
                    first.incrementAndGet();
                    Thread.onSpinWait();
                    try (WriteGate.Pass nested = gate.enter()) {
                      second.incrementAndGet();
                    }
                  }
                }
                return null;
              }));
    }
    int pauses = 0;
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(500);
    while (System.nanoTime() < deadline || pauses < 20) {
      try (WriteGate.Pause pause = gate.pause(Duration.ofSeconds(10))) {
        assertThat(gate.inFlight()).isZero();
        long a = first.get();
        Thread.sleep(1);
        assertThat(second.get()).isEqualTo(a);
        assertThat(first.get()).as("no change begins during a pause").isEqualTo(a);
      }
      pauses++;
    }
    stop.set(true);
    for (Future<?> w : writers) {
      w.get(10, TimeUnit.SECONDS);
    }
    pool.shutdown();
    assertThat(first.get()).isEqualTo(second.get()).isPositive();
    assertThat(gate.passesTaken()).isEqualTo(first.get());
  }

  @Test
  void aPauseWaitsForTheWriteInFlightThenRunsTheFlushes() throws Exception {
    WriteGate gate = new WriteGate("t");
    AtomicInteger flushed = new AtomicInteger();
    gate.flushOnPause(flushed::incrementAndGet);
    CountDownLatch release = new CountDownLatch(1);
    Thread writer = writerHolding(gate, release);
    Thread releaser =
        new Thread(
            () -> {
              try {
                Thread.sleep(100);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
              assertThat(flushed.get()).as("no flush while a write runs").isZero();
              release.countDown();
            });
    releaser.start();
    try (WriteGate.Pause pause = gate.pause(Duration.ofSeconds(10))) {
      assertThat(gate.inFlight()).isZero();
      assertThat(flushed.get()).isEqualTo(1);
      assertThat(gate.paused()).isTrue();
    }
    assertThat(gate.paused()).isFalse();
    writer.join();
    releaser.join();
  }

  @Test
  void aPauseThatCannotDrainGivesUpAndLetsWritesGoOn() throws Exception {
    WriteGate gate = new WriteGate("t");
    CountDownLatch release = new CountDownLatch(1);
    Thread writer = writerHolding(gate, release);
    assertThatThrownBy(() -> gate.pause(Duration.ofMillis(50)))
        .isInstanceOf(StorageException.class)
        .hasMessageContaining("1 write(s) of t still running");
    assertThat(gate.paused()).isFalse();
    try (WriteGate.Pass pass = gate.enter()) {
      assertThat(gate.inFlight()).isEqualTo(2);
    }
    release.countDown();
    writer.join();
  }

  @Test
  void aWriteWaitsForThePauseAndIsRefusedAfterItsWait() throws Exception {
    WriteGate gate = new WriteGate("t", Duration.ofMillis(100));
    try (WriteGate.Pause pause = gate.pause(Duration.ofSeconds(1))) {
      assertThatThrownBy(gate::enter)
          .isInstanceOf(StorageException.class)
          .hasMessageContaining("paused for a backup")
          .satisfies(e -> assertThat(ErrorKind.of(e)).isEqualTo(ErrorKind.STORAGE_UNAVAILABLE));
      assertThatThrownBy(() -> gate.pause(Duration.ofSeconds(1)))
          .isInstanceOf(ConflictException.class);
    }
    assertThat(gate.inFlight()).isZero();
    WriteGate slow = new WriteGate("t", Duration.ofSeconds(10));
    CountDownLatch waiting = new CountDownLatch(1);
    AtomicBoolean wrote = new AtomicBoolean();
    Thread writer;
    try (WriteGate.Pause pause = slow.pause(Duration.ofSeconds(1))) {
      writer =
          new Thread(
              () -> {
                waiting.countDown();
                try (WriteGate.Pass pass = slow.enter()) {
                  wrote.set(true);
                }
              });
      writer.start();
      waiting.await();
      Thread.sleep(50);
      assertThat(wrote).isFalse();
    }
    writer.join(5_000);
    assertThat(wrote).isTrue();
  }

  @Test
  void aPassClosedTwiceLeavesOnceAndARemovedFlushNoLongerRuns() {
    WriteGate gate = new WriteGate("t");
    AtomicInteger flushed = new AtomicInteger();
    WriteGate.Registration flush = gate.flushOnPause(flushed::incrementAndGet);
    try (WriteGate.Pass outer = gate.enter()) {
      WriteGate.Pass inner = gate.enter();
      inner.close();
      inner.close();
      assertThat(gate.inFlight()).as("the outer pass still holds").isEqualTo(1);
    }
    assertThat(gate.inFlight()).isZero();
    gate.pause(Duration.ofSeconds(1)).close();
    flush.close();
    gate.pause(Duration.ofSeconds(1)).close();
    assertThat(flushed.get()).isEqualTo(1);
  }

  @Test
  void aWriterCannotPauseItsOwnGate() {
    WriteGate gate = new WriteGate("t");
    try (WriteGate.Pass pass = gate.enter()) {
      assertThatThrownBy(() -> gate.pause(Duration.ofSeconds(1)))
          .isInstanceOf(IllegalStateException.class);
    }
    assertThat(gate.inFlight()).isZero();
  }

  /** A writer thread that holds a pass of {@code gate} until {@code release}; started, inside. */
  private static Thread writerHolding(WriteGate gate, CountDownLatch release)
      throws InterruptedException {
    CountDownLatch entered = new CountDownLatch(1);
    Thread writer =
        new Thread(
            () -> {
              try (WriteGate.Pass pass = gate.enter()) {
                entered.countDown();
                release.await();
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            });
    writer.start();
    entered.await();
    return writer;
  }
}
