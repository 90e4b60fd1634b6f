package org.casebook.core;

import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * Refuses writes while the disk under the embedded HBase's data is nearly full, so that a full disk
 * is a clear, retriable answer instead of a region server stuck on a write it cannot make: below
 * {@code casebook.min-free-disk} free (a size, default 1g) every {@link WriteGate} refuses new
 * changes with an {@link InsufficientStorageException}; reads go on, and writes are taken again
 * once space is freed, without a restart. The floor keeps room for what HBase still writes after
 * the last accepted change: memstore flushes, WAL rolls and compactions.
 *
 * <p>The free space is read at most every {@link #RECHECK_NANOS} by whichever writer comes first,
 * so a write costs no system call in between.
 */
public final class DiskSpaceGuard {
  /** The operator's floor, in HBase's configuration ({@code --hbase casebook.min-free-disk=2g}). */
  public static final String MIN_FREE_KEY = "casebook.min-free-disk";

  static final long DEFAULT_MIN_FREE = 1L << 30;
  static final long RECHECK_NANOS = 500_000_000L;

  private static final DiskSpaceGuard NONE = new DiskSpaceGuard(null, 0, () -> Long.MAX_VALUE);

  private final Path dir;
  private final long minFreeBytes;
  private final LongSupplier usableBytes;
  private final AtomicLong checkedAt = new AtomicLong(System.nanoTime() - 2 * RECHECK_NANOS);
  private volatile long lastUsable = Long.MAX_VALUE;

  DiskSpaceGuard(Path dir, long minFreeBytes, LongSupplier usableBytes) {
    if (minFreeBytes < 0) {
      throw new IllegalArgumentException("minFreeBytes < 0: " + minFreeBytes);
    }
    this.dir = dir;
    this.minFreeBytes = minFreeBytes;
    this.usableBytes = Objects.requireNonNull(usableBytes, "usableBytes is null");
  }

  /** No floor: HBase's data is not on this machine's disk (a cluster's HDFS). */
  public static DiskSpaceGuard none() {
    return NONE;
  }

  /** A floor of {@code minFreeBytes} on the file system that holds {@code dir}. */
  public static DiskSpaceGuard of(Path dir, long minFreeBytes) {
    FileStore store;
    try {
      Files.createDirectories(dir);
      store = Files.getFileStore(dir);
    } catch (IOException e) {
      throw new LocalFileException("could not read the file system of " + dir, e);
    }
    return new DiskSpaceGuard(
        dir,
        minFreeBytes,
        () -> {
          try {
            return store.getUsableSpace();
          } catch (IOException e) {
            throw new LocalFileException("could not read the free space of " + dir, e);
          }
        });
  }

  /**
   * The guard of {@code runtime}: the floor of {@code casebook.min-free-disk} under the embedded
   * HBase's data directory, none on a cluster.
   */
  public static DiskSpaceGuard of(HBaseRuntime runtime, Path dataDir) {
    if (runtime.mode() != HBaseRuntime.Mode.EMBEDDED) {
      return none();
    }
    return of(dataDir, minFreeBytes(runtime.configuration()));
  }

  /** The floor {@code conf} sets ({@code casebook.min-free-disk}), else the default. */
  public static long minFreeBytes(org.apache.hadoop.conf.Configuration conf) {
    long minFree;
    try {
      minFree = conf.getLongBytes(MIN_FREE_KEY, DEFAULT_MIN_FREE);
    } catch (NumberFormatException e) {
      throw new InvalidInputException(
          MIN_FREE_KEY, "not a size: '" + conf.get(MIN_FREE_KEY) + "' (say 512m or 2g)");
    }
    InvalidInputException.check(minFree >= 0, MIN_FREE_KEY, "must not be negative");
    return minFree;
  }

  public boolean active() {
    return dir != null;
  }

  public long minFreeBytes() {
    return minFreeBytes;
  }

  /** The free space as last read (read now when older than the recheck period). */
  public long usableBytes() {
    long now = System.nanoTime();
    long at = checkedAt.get();
    if (now - at >= RECHECK_NANOS && checkedAt.compareAndSet(at, now)) {
      lastUsable = usableBytes.getAsLong();
    }
    return lastUsable;
  }

  /** Whether writes are refused now. */
  public boolean low() {
    return active() && usableBytes() < minFreeBytes;
  }

  /** Refuses a change of {@code system} while the disk is below its floor. */
  public void checkWrite(String system) {
    if (low()) {
      throw new InsufficientStorageException(
          "the disk holding "
              + dir
              + " has "
              + mib(lastUsable)
              + " free, below the "
              + mib(minFreeBytes)
              + " kept for HBase ("
              + MIN_FREE_KEY
              + "): writes of "
              + system
              + " are refused until space is freed; reads go on");
    }
  }

  /**
   * Refuses work that will write about {@code bytes} under the data directory (a bulk load's
   * HFiles, a backup's copy) when that would leave less than the floor: early, before any of it is
   * written.
   */
  public void require(long bytes, String what) {
    if (!active()) {
      return;
    }
    checkedAt.set(System.nanoTime() - 2 * RECHECK_NANOS);
    long free = usableBytes();
    if (free - bytes < minFreeBytes) {
      throw new InsufficientStorageException(
          what
              + " needs about "
              + mib(bytes)
              + " on the disk holding "
              + dir
              + ", which has "
              + mib(free)
              + " free and keeps "
              + mib(minFreeBytes)
              + " for HBase ("
              + MIN_FREE_KEY
              + "); free space first");
    }
  }

  private static String mib(long bytes) {
    return (bytes >> 20) + " MiB";
  }
}
