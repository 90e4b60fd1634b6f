package org.casebook.core;

import java.time.Duration;
import java.util.Objects;

/**
 * The writes of one system in this process, which a backup can pause: every change passes through
 * it at the edge (one {@link #enter() pass} per HTTP write, stream item, line command or batch of
 * background work), so a pause that found no change in flight sees each change either whole or not
 * at all, across all the system's tables.
 *
 * <p>A pass is taken where work enters the system, never inside work a pass-holder waits for (a
 * task handed to another thread would wait for the pause that waits for its caller). A thread that
 * holds a pass may enter again without waiting.
 */
public final class WriteGate {
  /** A change in flight; close it when the change is done. */
  public interface Pass extends AutoCloseable {
    @Override
    void close();
  }

  /** Writes held back; close it to let them go on. */
  public interface Pause extends AutoCloseable {
    @Override
    void close();
  }

  /** A flush registered for pauses; close it to remove it. */
  public interface Registration extends AutoCloseable {
    @Override
    void close();
  }

  /** How long a write waits for a pause to end before it is refused as unavailable. */
  static final Duration DEFAULT_WAIT = Duration.ofSeconds(30);

  private final String system;
  private final Duration maxWait;
  private final DiskSpaceGuard disk;
  private final ThreadLocal<int[]> depth = ThreadLocal.withInitial(() -> new int[1]);
  private int inFlight;
  private boolean paused;
  private long passesTaken;
  private final java.util.List<Runnable> flushes =
      new java.util.concurrent.CopyOnWriteArrayList<>();

  public WriteGate(String system) {
    this(system, DEFAULT_WAIT, DiskSpaceGuard.none());
  }

  /** A gate that also refuses changes while {@code disk} is below its floor. */
  public WriteGate(String system, DiskSpaceGuard disk) {
    this(system, DEFAULT_WAIT, disk);
  }

  WriteGate(String system, Duration maxWait) {
    this(system, maxWait, DiskSpaceGuard.none());
  }

  WriteGate(String system, Duration maxWait, DiskSpaceGuard disk) {
    this.system = Objects.requireNonNull(system, "system is null");
    this.maxWait = Objects.requireNonNull(maxWait, "maxWait is null");
    this.disk = Objects.requireNonNull(disk, "disk is null");
  }

  public String system() {
    return system;
  }

  /**
   * Lets one change in: waits while a pause holds the writes (at most the gate's wait, then refuses
   * with a retriable {@link StorageException}); refuses it with an {@link
   * InsufficientStorageException} while the disk is below its floor.
   */
  public Pass enter() {
    return enter(maxWait);
  }

  /**
   * As {@link #enter()}, waiting at most {@code wait} for a pause to end (a request served by a
   * shared pool of workers waits briefly, so one paused system cannot hold every worker).
   */
  public Pass enter(Duration wait) {
    int[] d = depth.get();
    if (d[0] > 0) {
      d[0]++;
      return oncePass();
    }
    disk.checkWrite(system);
    synchronized (this) {
      long deadline = System.nanoTime() + wait.toNanos();
      while (paused) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          throw StorageException.unavailable(
              "the writes of "
                  + system
                  + " are paused for a backup for longer than "
                  + Math.max(1, wait.toSeconds())
                  + " s; try again");
        }
        try {
          wait(Math.max(1, left / 1_000_000));
        } catch (InterruptedException e) {
          throw StorageException.interrupted("wait for a backup's pause of " + system, e);
        }
      }
      inFlight++;
      passesTaken++;
    }
    d[0] = 1;
    return oncePass();
  }

  /**
   * Refuses, before it starts, work that will write about {@code bytes} into the embedded HBase (a
   * bulk load's HFiles) when the disk would fall below its floor.
   */
  public void requireSpace(long bytes, String what) {
    disk.require(bytes, what);
  }

  /** A pass that leaves once however often it is closed. */
  private Pass oncePass() {
    java.util.concurrent.atomic.AtomicBoolean closed =
        new java.util.concurrent.atomic.AtomicBoolean();
    return () -> {
      if (closed.compareAndSet(false, true)) {
        leave();
      }
    };
  }

  private void leave() {
    int[] d = depth.get();
    if (d[0] <= 0) {
      throw new IllegalStateException("a pass of " + system + " closed twice");
    }
    if (--d[0] > 0) {
      return;
    }
    depth.remove();
    synchronized (this) {
      inFlight--;
      notifyAll();
    }
  }

  /**
   * Runs {@code flush} in every pause once the writes in flight have finished: a system that
   * acknowledges writes before they are stored (a write buffer) makes them stored there. Close the
   * answer when the buffer closes.
   */
  public Registration flushOnPause(Runnable flush) {
    Objects.requireNonNull(flush, "flush is null");
    flushes.add(flush);
    return () -> flushes.remove(flush);
  }

  /**
   * Holds back new writes, waits up to {@code drain} for those in flight to finish and runs the
   * {@link #flushOnPause flushes}. The caller must not hold a pass. Refused with a {@link
   * ConflictException} while another pause holds the writes; when the writes in flight do not
   * finish in time the pause is lifted and refused with a retriable {@link StorageException}.
   */
  public Pause pause(Duration drain) {
    if (depth.get()[0] > 0) {
      throw new IllegalStateException("a pause of " + system + " asked by a writer of it");
    }
    synchronized (this) {
      if (paused) {
        throw new ConflictException("the writes of " + system + " are already paused");
      }
      paused = true;
      long deadline = System.nanoTime() + drain.toNanos();
      try {
        while (inFlight > 0) {
          long left = deadline - System.nanoTime();
          if (left <= 0) {
            throw StorageException.unavailable(
                inFlight
                    + " write(s) of "
                    + system
                    + " still running after "
                    + drain.toSeconds()
                    + " s; the writes go on, try again");
          }
          wait(Math.max(1, left / 1_000_000));
        }
      } catch (InterruptedException e) {
        resume();
        throw StorageException.interrupted("wait for the writes of " + system + " to finish", e);
      } catch (RuntimeException | Error e) {
        resume();
        throw e;
      }
    }
    try {
      for (Runnable flush : flushes) {
        flush.run();
      }
    } catch (RuntimeException | Error e) {
      resume();
      throw e;
    }
    return this::resume;
  }

  private synchronized void resume() {
    paused = false;
    notifyAll();
  }

  /** Whether a pause holds the writes now. */
  public synchronized boolean paused() {
    return paused;
  }

  /** Changes in flight now. */
  public synchronized int inFlight() {
    return inFlight;
  }

  /** Passes given since the gate was made (each change once, however often it re-entered). */
  public synchronized long passesTaken() {
    return passesTaken;
  }
}
