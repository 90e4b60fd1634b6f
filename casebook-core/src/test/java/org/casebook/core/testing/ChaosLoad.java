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
import org.casebook.core.StorageException;
import org.casebook.core.chaos.ChaosAction;
import org.casebook.core.chaos.ChaosEvent;
import org.casebook.core.chaos.ProcessCommands;
import org.casebook.core.chaos.RegionChaos;
import org.casebook.core.schema.SchemaManager;

/**
 * A short seeded chaos run for a system's test: worker threads repeat a step of the system's load
 * (each step decides what it acknowledged) while {@link RegionChaos} splits, merges, flushes and
 * compacts the system's tables; then the chaos stops and the regions settle, and the test verifies
 * the system's invariants from its API. A step's exception is counted by class, not fatal: under
 * chaos a retriable error is expected, an acknowledged write lost is not.
 *
 * <p>On a cluster ({@link EmbeddedHBase#onCluster}) system properties lengthen the run and add the
 * kill actions: {@code casebook.chaos.seconds=N} replaces every run's duration, and {@code
 * casebook.chaos.kill-regionserver-command} with {@code casebook.chaos.start-regionserver-command}
 * (and {@code casebook.chaos.kill-master-command} with {@code casebook.chaos.start-master-command})
 * kill and start the daemons as {@link ProcessCommands} says, {@code
 * casebook.chaos.restart-pause-seconds} apart. Without them a run is as it always was.
 */
public final class ChaosLoad {
  public static final String SECONDS_PROPERTY = "casebook.chaos.seconds";
  public static final String PROPERTY_PREFIX = "casebook.chaos.";

  /** One step of a worker's load. */
  public interface Step {
    void run(int worker, long iteration) throws Exception;
  }

  /** What happened: the actions, the steps run, and the errors the steps saw by class. */
  public record Report(List<ChaosEvent> events, long steps, Map<String, Long> errors) {
    public long done(ChaosAction action) {
      return events.stream().filter(e -> e.action() == action && e.done()).count();
    }

    /**
     * One line per action with its outcomes counted, each kill with its daemon and recovery time,
     * and the load's errors: what a run on a cluster is read by.
     */
    public String summary() {
      Map<ChaosAction, Map<String, Long>> outcomes = new java.util.EnumMap<>(ChaosAction.class);
      StringBuilder kills = new StringBuilder();
      for (ChaosEvent e : events) {
        String kind =
            e.done() ? "done" : e.skipped() ? "skipped" : e.timedOut() ? "timed out" : "refused";
        outcomes.computeIfAbsent(e.action(), a -> new TreeMap<>()).merge(kind, 1L, Long::sum);
        if (e.action().killsProcess() && !e.skipped()) {
          kills.append(
              String.format(
                  "  %-17s %-21s at %6d ms: %s%s%n",
                  e.action().label(),
                  e.region(),
                  e.atMillis(),
                  e.outcome(),
                  e.recovered() ? ", recovered in " + e.recoveryMillis() + " ms" : ""));
        }
      }
      StringBuilder b = new StringBuilder("chaos summary: ");
      b.append(steps).append(" steps, errors ").append(errors).append('\n');
      outcomes.forEach((a, o) -> b.append(String.format("  %-17s %s%n", a.label(), o)));
      return b.append(kills).toString();
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

  /** A check of what a chaos run left (it reads storage, and may throw). */
  @FunctionalInterface
  public interface Check<T> {
    T run() throws Exception;
  }

  /**
   * {@code check}'s answer, run again while it fails on storage rather than on an assertion: on a
   * cluster another test's runner may still be killing RegionServers, and a region of a dead one is
   * out of reach until the master reassigns it. Tries for up to three minutes, 5 s apart.
   */
  public static <T> T afterRecovery(Check<T> check) throws Exception {
    long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
    while (true) {
      try {
        return check.run();
      } catch (java.io.UncheckedIOException | java.io.IOException | StorageException e) {
        if (Thread.currentThread().isInterrupted() || System.nanoTime() > deadline) {
          throw e;
        }
        System.err.println("chaos: check failed on storage, again in 5 s: " + e);
        Thread.sleep(5_000);
      }
    }
  }

  /**
   * Drops a test's namespaces after a chaos run, in a {@code finally}: a master still busy with the
   * run (a cluster under load answers admin calls late) gets three tries, 5 s apart, and what is
   * still there is logged as left behind, never thrown, so the test's own outcome stands.
   */
  public static void dropAfterwards(Connection connection, String... namespaces) {
    SchemaManager schemas = new SchemaManager(connection);
    for (String namespace : namespaces) {
      for (int attempt = 1; ; attempt++) {
        try {
          schemas.dropNamespace(namespace);
          break;
        } catch (StorageException e) {
          if (attempt == 3) {
            System.err.println("chaos: namespace " + namespace + " left behind: " + e.getMessage());
            break;
          }
          try {
            Thread.sleep(5_000);
          } catch (InterruptedException ie) {
            Thread.currentThread().interrupt();
            return;
          }
        }
      }
    }
  }

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
    duration = duration(duration);
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
                  // Nothing interrupts a worker before the end: a step that leaves its thread
                  // interrupted would fail every later call on it (a server's request thread too).
                  if (Thread.interrupted()) {
                    throw new AssertionError("step " + i + " left its thread interrupted");
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
            withProperties(
                new RegionChaos.Options(
                    seed, pause, ChaosAction.regionActions(), Duration.ofSeconds(30))))) {
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
    RegionChaos.awaitSettled(connection, Duration.ofMinutes(3));
    Report report = new Report(events, steps.get(), new TreeMap<>(errors));
    System.out.print(report.summary());
    return report;
  }

  /** {@code duration}, or {@value #SECONDS_PROPERTY} seconds when that is given. */
  public static Duration duration(Duration duration) {
    String seconds = System.getProperty(SECONDS_PROPERTY, "").strip();
    return seconds.isEmpty() ? duration : Duration.ofSeconds(Long.parseLong(seconds));
  }

  /**
   * {@code options} with the kill commands of the system properties, and the kill actions they make
   * possible added to the actions; {@code options} as they are when none is given.
   */
  public static RegionChaos.Options withProperties(RegionChaos.Options options) {
    ProcessCommands commands =
        new ProcessCommands(
            property("kill-regionserver-command"),
            property("start-regionserver-command"),
            property("kill-master-command"),
            property("start-master-command"));
    List<ChaosAction> actions = new ArrayList<>(options.actions());
    if (commands.killsRegionServers()) {
      actions.add(ChaosAction.KILL_REGIONSERVER);
    }
    if (commands.killsMaster()) {
      actions.add(ChaosAction.KILL_MASTER);
    }
    if (actions.size() == options.actions().size()) {
      return options;
    }
    String pause = property("restart-pause-seconds");
    return new RegionChaos.Options(
            options.seed(), options.pause(), actions, options.actionTimeout())
        .withProcesses(
            commands,
            pause.isEmpty()
                ? RegionChaos.Options.DEFAULT_RESTART_PAUSE
                : Duration.ofSeconds(Long.parseLong(pause)),
            RegionChaos.Options.DEFAULT_RECOVERY_TIMEOUT)
        .withMasterKills(options.masterKills());
  }

  private static String property(String name) {
    return System.getProperty(PROPERTY_PREFIX + name, "").strip();
  }
}
