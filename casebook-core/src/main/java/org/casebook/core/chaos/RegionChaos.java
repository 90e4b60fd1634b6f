package org.casebook.core.chaos;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.FilterList;
import org.apache.hadoop.hbase.filter.FirstKeyOnlyFilter;
import org.apache.hadoop.hbase.filter.KeyOnlyFilter;
import org.apache.hadoop.hbase.util.Bytes;
import org.casebook.core.Threads;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * HBase's own events, on purpose, while a load runs (the region actions of HBase's ChaosMonkey):
 * one thread that, every {@code pause}, picks an action and a table at random from a seeded
 * generator and applies it to one region through {@link Admin}. The same seed on the same tables
 * and regions picks the same sequence; what HBase makes of each action (a split refused because the
 * region still holds references, a merge of regions in transition) is recorded, never thrown. Given
 * the operator's {@link ProcessCommands}, it also kills RegionServers and the master ({@link
 * DaemonKills}); without them those actions are recorded as skipped.
 */
public final class RegionChaos implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(RegionChaos.class);

  /** Rows read from a region to pick a split point among. */
  static final int SPLIT_SAMPLE_ROWS = 256;

  /**
   * What to do, how often, and for how long one action may run; for the kill actions, the commands
   * that kill and start the daemons, the pause before the start, how long the cluster may take to
   * recover (and each command to end), and how many times a run may kill the master.
   */
  public record Options(
      long seed,
      Duration pause,
      List<ChaosAction> actions,
      Duration actionTimeout,
      ProcessCommands processes,
      Duration restartPause,
      Duration recoveryTimeout,
      int masterKills) {
    public static final Duration DEFAULT_RESTART_PAUSE = Duration.ofSeconds(10);
    public static final Duration DEFAULT_RECOVERY_TIMEOUT = Duration.ofSeconds(180);

    public Options {
      Objects.requireNonNull(pause, "pause is null");
      Objects.requireNonNull(actionTimeout, "actionTimeout is null");
      Objects.requireNonNull(processes, "processes is null");
      Objects.requireNonNull(restartPause, "restartPause is null");
      Objects.requireNonNull(recoveryTimeout, "recoveryTimeout is null");
      actions = List.copyOf(actions);
      if (actions.isEmpty()) {
        throw new IllegalArgumentException("no actions");
      }
      if (restartPause.isNegative()
          || recoveryTimeout.isNegative()
          || recoveryTimeout.isZero()
          || masterKills < 0) {
        throw new IllegalArgumentException(
            "restartPause must be >= 0, recoveryTimeout > 0, masterKills >= 0");
      }
    }

    /** Region actions only: the kill actions, if listed, are recorded as skipped. */
    public Options(long seed, Duration pause, List<ChaosAction> actions, Duration actionTimeout) {
      this(
          seed,
          pause,
          actions,
          actionTimeout,
          ProcessCommands.NONE,
          DEFAULT_RESTART_PAUSE,
          DEFAULT_RECOVERY_TIMEOUT,
          1);
    }

    /** These options with the daemons killed through {@code processes}. */
    public Options withProcesses(
        ProcessCommands processes, Duration restartPause, Duration recoveryTimeout) {
      return new Options(
          seed,
          pause,
          actions,
          actionTimeout,
          processes,
          restartPause,
          recoveryTimeout,
          masterKills);
    }

    /** These options with the master killed at most {@code times} a run. */
    public Options withMasterKills(int times) {
      return new Options(
          seed, pause, actions, actionTimeout, processes, restartPause, recoveryTimeout, times);
    }
  }

  private final Connection connection;
  private final List<TableName> tables;
  private final Options options;
  private final SplittableRandom random;
  private final java.util.ArrayDeque<ChaosAction> round = new java.util.ArrayDeque<>();
  private final List<ChaosEvent> events = Collections.synchronizedList(new ArrayList<>());
  private final long startNanos = System.nanoTime();
  private final Thread thread;
  private final DaemonKills kills;

  /** Runs blocking Admin calls; one left hanging past its timeout does not hold up the next. */
  private final java.util.concurrent.ExecutorService calls =
      java.util.concurrent.Executors.newCachedThreadPool(Threads.daemon("region-chaos-call"));

  private volatile boolean stopping;
  private volatile Throwable crashed;

  private RegionChaos(Connection connection, List<TableName> tables, Options options) {
    this.connection = Objects.requireNonNull(connection, "connection is null");
    this.tables = List.copyOf(tables);
    if (this.tables.isEmpty()) {
      throw new IllegalArgumentException("no tables");
    }
    this.options = options;
    this.random = new SplittableRandom(options.seed());
    this.thread = Threads.daemon("region-chaos").newThread(this::loop);
    this.kills = new DaemonKills(connection, this.tables, options, random);
  }

  /** Starts acting on {@code tables} at once. */
  public static RegionChaos start(Connection connection, List<TableName> tables, Options options) {
    RegionChaos chaos = new RegionChaos(connection, tables, options);
    chaos.thread.start();
    return chaos;
  }

  /**
   * Stops after the action under way (which has its action timeout to end; a kill, its restart and
   * recovery wait) and returns every action taken, in order.
   */
  public List<ChaosEvent> stop() {
    stopping = true;
    try {
      // A kill under way is waited for to its end: its daemon is started again before this returns.
      long kill =
          options.actions().stream().anyMatch(ChaosAction::killsProcess)
              ? DaemonKills.longest(options).toMillis()
              : 0;
      thread.join(options.actionTimeout().toMillis() + kill + 10_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (thread.isAlive()) {
      LOG.warn("region chaos: an action is still running after its timeout; not waiting longer");
    }
    calls.shutdown();
    if (crashed != null) {
      throw new IllegalStateException("region chaos stopped on an unexpected error", crashed);
    }
    synchronized (events) {
      return List.copyOf(events);
    }
  }

  @Override
  public void close() {
    if (!stopping) {
      stop();
    }
  }

  /**
   * Waits until no region of the cluster is in transition (a split, merge or move finished), up to
   * {@code timeout}; false if some still are then. A master that does not answer (killed, or
   * starting again) is waited for within the same time; past it, its last error is thrown.
   */
  public static boolean awaitSettled(Connection connection, Duration timeout)
      throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    try (Admin admin = connection.getAdmin()) {
      while (true) {
        try {
          boolean quiet =
              admin
                  .getClusterMetrics(
                      java.util.EnumSet.of(
                          org.apache.hadoop.hbase.ClusterMetrics.Option.REGIONS_IN_TRANSITION))
                  .getRegionStatesInTransition()
                  .isEmpty();
          if (quiet) {
            return true;
          }
        } catch (IOException e) {
          if (System.nanoTime() > deadline) {
            throw e;
          }
          LOG.info("region chaos: the master does not answer yet, waiting: {}", e.getMessage());
          Thread.sleep(1000);
          continue;
        }
        if (System.nanoTime() > deadline) {
          return false;
        }
        Thread.sleep(100);
      }
    } catch (IOException e) {
      throw org.casebook.core.StorageException.of("read the regions in transition", e);
    }
  }

  private void loop() {
    try (Admin admin = connection.getAdmin()) {
      while (!stopping) {
        act(admin);
        long until = System.nanoTime() + options.pause().toNanos();
        while (!stopping && System.nanoTime() < until) {
          Thread.sleep(Math.min(50, Math.max(1, (until - System.nanoTime()) / 1_000_000)));
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (IOException | RuntimeException e) {
      crashed = e;
      LOG.error("region chaos stopped", e);
    }
  }

  private void act(Admin admin) throws InterruptedException {
    if (round.isEmpty()) {
      List<ChaosAction> next = new ArrayList<>(options.actions());
      for (int i = next.size() - 1; i > 0; i--) {
        Collections.swap(next, i, random.nextInt(i + 1));
      }
      // The first round opens with a split: it is the event every system's keys are designed
      // for, and a short run on a slow machine may not reach a split placed late in the round.
      if (events.isEmpty() && next.remove(ChaosAction.SPLIT)) {
        next.add(0, ChaosAction.SPLIT);
      }
      round.addAll(next);
    }
    ChaosAction action = round.poll();
    int first = random.nextInt(tables.size());
    long at = millisSinceStart();
    long t0 = System.nanoTime();
    Acted acted;
    try {
      acted = act(admin, action, first);
    } catch (IOException e) {
      acted = new Acted(tables.get(first), "-", "refused: " + firstLine(e));
    }
    ChaosEvent event =
        new ChaosEvent(
            at,
            action,
            action.killsProcess() ? "-" : acted.table().getNameAsString(),
            acted.region(),
            acted.outcome(),
            millisSince(t0),
            acted.recoveryMillis());
    events.add(event);
    LOG.info(
        "region chaos: {} {} {}: {} ({} ms{})",
        action.label(),
        event.table(),
        event.region(),
        event.outcome(),
        event.tookMillis(),
        event.recovered() ? ", recovered in " + event.recoveryMillis() + " ms" : "");
  }

  /** Where an action went and what came of it (and, for a kill, the recovery time). */
  private record Acted(TableName table, String region, String outcome, long recoveryMillis) {
    Acted(TableName table, String region, String outcome) {
      this(table, region, outcome, -1);
    }
  }

  /**
   * Applies {@code action} to a region of the table at {@code first}; a split or a merge that table
   * cannot take (no row to split at, one region) goes to the next table that can, so a table the
   * load leaves empty does not use up the run's splits and merges.
   */
  private Acted act(Admin admin, ChaosAction action, int first)
      throws IOException, InterruptedException {
    if (action.killsProcess()) {
      DaemonKills.Killed killed =
          action == ChaosAction.KILL_MASTER
              ? kills.killMaster(admin)
              : kills.killRegionServer(admin);
      return new Acted(
          tables.get(first), killed.daemon(), killed.outcome(), killed.recoveryMillis());
    }
    boolean movable = action == ChaosAction.SPLIT || action == ChaosAction.MERGE;
    Acted skipped = null;
    for (int k = 0; k < (movable ? tables.size() : 1); k++) {
      TableName table = tables.get((first + k) % tables.size());
      List<RegionInfo> regions = new ArrayList<>(admin.getRegions(table));
      regions.sort(RegionInfo.COMPARATOR);
      RegionInfo target = regions.get(random.nextInt(regions.size()));
      String region = target.getEncodedName();
      switch (action) {
        case FLUSH -> {
          return new Acted(
              table, region, blocking(() -> admin.flushRegion(target.getRegionName())));
        }
        case COMPACT -> {
          return new Acted(
              table, region, blocking(() -> admin.compactRegion(target.getRegionName())));
        }
        case MAJOR_COMPACT -> {
          return new Acted(
              table, region, blocking(() -> admin.majorCompactRegion(target.getRegionName())));
        }
        case MOVE -> {
          return new Acted(table, region, move(admin, table, target));
        }
        case SPLIT -> {
          byte[] at = splitRow(table, target);
          if (at == null) {
            skipped = new Acted(table, region, "skipped: no table has a row to split at");
            continue;
          }
          return new Acted(
              table, region, await(admin.splitRegionAsync(target.getRegionName(), at)));
        }
        case KILL_REGIONSERVER, KILL_MASTER -> throw new IllegalStateException("a kill: " + action);
        case MERGE -> {
          if (regions.size() < 2) {
            skipped = new Acted(table, "-", "skipped: every table has one region");
            continue;
          }
          int i = random.nextInt(regions.size() - 1);
          return new Acted(
              table,
              regions.get(i).getEncodedName() + "+" + regions.get(i + 1).getEncodedName(),
              await(
                  admin.mergeRegionsAsync(
                      new byte[][] {
                        regions.get(i).getEncodedNameAsBytes(),
                        regions.get(i + 1).getEncodedNameAsBytes()
                      },
                      false)));
        }
      }
    }
    return skipped;
  }

  /** A row of {@code region} other than its first, picked by the seed; null if it has none. */
  private byte[] splitRow(TableName table, RegionInfo region) throws IOException {
    List<byte[]> rows = new ArrayList<>();
    Scan scan =
        new Scan()
            .withStartRow(region.getStartKey())
            .withStopRow(region.getEndKey())
            .setFilter(new FilterList(new FirstKeyOnlyFilter(), new KeyOnlyFilter()))
            .setLimit(SPLIT_SAMPLE_ROWS)
            .setCaching(SPLIT_SAMPLE_ROWS);
    try (Table t = connection.getTable(table);
        ResultScanner scanner = t.getScanner(scan)) {
      for (Result r : scanner) {
        if (!Bytes.equals(r.getRow(), region.getStartKey())) {
          rows.add(r.getRow());
        }
      }
    } catch (java.io.UncheckedIOException e) {
      // The scanner's iterator wraps a failed read (a region moving or on a dead server): the
      // split is refused like any other failed action, the run goes on.
      throw e.getCause();
    }
    return rows.isEmpty() ? null : rows.get(random.nextInt(rows.size()));
  }

  private String move(Admin admin, TableName table, RegionInfo region)
      throws IOException, InterruptedException {
    List<ServerName> servers = new ArrayList<>(admin.getRegionServers());
    if (servers.size() < 2) {
      return "skipped: one RegionServer";
    }
    servers.sort(ServerName::compareTo);
    ServerName now;
    try (RegionLocator locator = connection.getRegionLocator(table)) {
      HRegionLocation location = locator.getRegionLocation(region.getStartKey(), true);
      now = location.getServerName();
    }
    servers.remove(now);
    ServerName to = servers.get(random.nextInt(servers.size()));
    return blocking(() -> admin.move(region.getEncodedNameAsBytes(), to));
  }

  /** An Admin call that blocks until HBase is done, run so that it gets the action timeout too. */
  private interface AdminCall {
    void run() throws IOException;
  }

  private String blocking(AdminCall call) throws IOException, InterruptedException {
    return await(
        calls.submit(
            () -> {
              call.run();
              return null;
            }));
  }

  private String await(Future<?> future) throws IOException, InterruptedException {
    try {
      future.get(options.actionTimeout().toMillis(), TimeUnit.MILLISECONDS);
      return "done";
    } catch (TimeoutException e) {
      return "timed out after " + options.actionTimeout().toSeconds() + " s (left to HBase)";
    } catch (ExecutionException e) {
      Throwable cause = e.getCause() == null ? e : e.getCause();
      return "refused: " + firstLine(cause);
    }
  }

  static String firstLine(Throwable e) {
    String m = String.valueOf(e.getMessage());
    int nl = m.indexOf('\n');
    String line = nl < 0 ? m : m.substring(0, nl);
    return e.getClass().getSimpleName()
        + ": "
        + (line.length() > 200 ? line.substring(0, 200) + "…" : line);
  }

  private long millisSinceStart() {
    return millisSince(startNanos);
  }

  private static long millisSince(long t0) {
    return (System.nanoTime() - t0) / 1_000_000;
  }
}
