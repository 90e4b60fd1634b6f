package org.casebook.core.testing;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.casebook.core.chaos.ChaosAction;
import org.casebook.core.chaos.ChaosEvent;
import org.casebook.core.chaos.RegionChaos;

/**
 * A short seeded chaos run for a system's test: worker threads repeat a step of the system's load
 * (each step decides what it acknowledged) while {@link RegionChaos} splits, merges, flushes and
 * compacts the system's tables; then the chaos stops and the regions settle, and the test verifies
 * the system's invariants from its API. A step's exception is counted by class, not fatal: under
 * chaos a retriable error is expected, an acknowledged write lost is not.
 */
public final class ChaosLoad {
  /** One step of a worker's load. */
  public interface Step {
    void run(int worker, long iteration) throws Exception;
  }

  /** What happened: the actions, the steps run, and the errors the steps saw by class. */
  public record Report(List<ChaosEvent> events, long steps, Map<String, Long> errors) {
    public long done(ChaosAction action) {
      return events.stream().filter(e -> e.action() == action && e.done()).count();
    }

    @Override
    public String toString() {
      StringBuilder b = new StringBuilder();
      b.append(steps).append(" steps, errors ").append(errors).append('\n');
      for (ChaosEvent e : events) {
        b.append(
                String.format(
                    "  %6d ms %-13s %-24s %-70s %s (%d ms)",
                    e.atMillis(),
                    e.action().label(),
                    e.table(),
                    e.region(),
                    e.outcome(),
                    e.tookMillis()))
            .append('\n');
      }
      return b.toString();
    }
  }

  private ChaosLoad() {}

  /**
   * Runs {@code workers} threads repeating {@code step} for {@code duration}, with the region
   * actions on {@code tables} from {@code seed} every {@code pause}, starting after the load has
   * run a fifth of the time (so the tables hold rows to split at). Returns once the workers stopped
   * and no region of the cluster is in transition.
   */
  public static Report run(
      Connection connection,
      List<TableName> tables,
      long seed,
      Duration duration,
      Duration pause,
      int workers,
      Step step)
      throws InterruptedException {
    ExecutorService pool = Executors.newFixedThreadPool(workers);
    AtomicLong steps = new AtomicLong();
    Map<String, Long> errors = new ConcurrentHashMap<>();
    long end = System.nanoTime() + duration.toNanos();
    List<Future<?>> running = new ArrayList<>();
    for (int w = 0; w < workers; w++) {
      int worker = w;
      running.add(
          pool.submit(
              () -> {
                for (long i = 0; System.nanoTime() < end; i++) {
                  try {
                    step.run(worker, i);
                    steps.incrementAndGet();
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                  } catch (Exception e) {
                    errors.merge(e.getClass().getSimpleName(), 1L, Long::sum);
                  }
                }
              }));
    }
    Thread.sleep(duration.toMillis() / 5);
    List<ChaosEvent> events;
    try (RegionChaos chaos =
        RegionChaos.start(
            connection,
            tables,
            new RegionChaos.Options(
                seed, pause, List.of(ChaosAction.values()), Duration.ofSeconds(30)))) {
      for (Future<?> f : running) {
        try {
          f.get();
        } catch (java.util.concurrent.ExecutionException e) {
          throw new AssertionError("a load worker failed", e.getCause());
        }
      }
      events = chaos.stop();
    } finally {
      pool.shutdownNow();
    }
    RegionChaos.awaitSettled(connection, Duration.ofSeconds(60));
    return new Report(events, steps.get(), new TreeMap<>(errors));
  }
}
