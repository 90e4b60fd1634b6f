package org.casebook.core.chaos;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.ClusterMetrics;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.master.RegionState;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The kill actions of {@link RegionChaos}: {@code kill -9} of a RegionServer or the HMaster through
 * the operator's {@link ProcessCommands}, a pause, the start command, then a bounded wait for the
 * cluster to have recovered (every region of the chaos tables online on a live RegionServer, no
 * region of them in transition, as many RegionServers live as before). A kill is always followed by
 * its start command, whatever the kill's own outcome, and nothing is killed once a recovery failed,
 * so a run never leaves a daemon down nor kills the last live RegionServer.
 */
final class DaemonKills {
  private static final Logger LOG = LoggerFactory.getLogger(DaemonKills.class);

  /** How often the recovery is checked. */
  private static final long POLL_MILLIS = 500;

  /** What a kill did: the daemon, the outcome, the recovery time (-1 when not recovered). */
  record Killed(String daemon, String outcome, long recoveryMillis) {}

  private final Connection connection;
  private final List<TableName> tables;
  private final RegionChaos.Options options;
  private final SplittableRandom random;
  private int masterKills;
  private String unrecovered;

  DaemonKills(
      Connection connection,
      List<TableName> tables,
      RegionChaos.Options options,
      SplittableRandom random) {
    this.connection = connection;
    this.tables = tables;
    this.options = options;
    this.random = random;
  }

  /** Longest a kill action can take: two commands, the pause, the recovery wait. */
  static Duration longest(RegionChaos.Options options) {
    return options.recoveryTimeout().multipliedBy(3).plus(options.restartPause());
  }

  Killed killRegionServer(Admin admin) throws IOException, InterruptedException {
    ProcessCommands commands = options.processes();
    if (!commands.killsRegionServers()) {
      return new Killed("-", "skipped: no command to kill and start a RegionServer given", -1);
    }
    if (unrecovered != null) {
      return new Killed("-", "skipped: the cluster had not recovered from " + unrecovered, -1);
    }
    List<ServerName> live = new ArrayList<>(admin.getRegionServers());
    if (live.size() < 2) {
      return new Killed("-", "skipped: one live RegionServer (never the last one)", -1);
    }
    live.sort(ServerName::compareTo);
    ServerName victim = live.get(random.nextInt(live.size()));
    return kill(
        "RegionServer",
        victim,
        live.size(),
        commands.killRegionServer(),
        commands.startRegionServer());
  }

  Killed killMaster(Admin admin) throws IOException, InterruptedException {
    ProcessCommands commands = options.processes();
    if (!commands.killsMaster()) {
      return new Killed("-", "skipped: no command to kill and start the master given", -1);
    }
    if (unrecovered != null) {
      return new Killed("-", "skipped: the cluster had not recovered from " + unrecovered, -1);
    }
    if (masterKills >= options.masterKills()) {
      return new Killed(
          "-", "skipped: the master was killed " + masterKills + " time(s) in this run", -1);
    }
    ClusterMetrics metrics =
        admin.getClusterMetrics(
            EnumSet.of(ClusterMetrics.Option.MASTER, ClusterMetrics.Option.LIVE_SERVERS));
    masterKills++;
    return kill(
        "master",
        metrics.getMasterName(),
        metrics.getLiveServerMetrics().size(),
        commands.killMaster(),
        commands.startMaster());
  }

  private Killed kill(String what, ServerName victim, int liveBefore, String kill, String start)
      throws InterruptedException {
    String daemon = victim.getAddress().toString();
    String killed =
        run(
            "kill " + what + " " + daemon,
            ProcessCommands.fill(kill, victim.getHostname(), victim.getPort()));
    long killedAt = System.nanoTime();
    if (killed == null) {
      Thread.sleep(options.restartPause().toMillis());
    }
    // Started again even when the kill failed: it may have killed the daemon all the same.
    String started =
        run(
            "start " + what + " " + daemon,
            ProcessCommands.fill(start, victim.getHostname(), victim.getPort()));
    if (killed != null || started != null) {
      unrecovered = "a failed " + what + " kill or start";
      return new Killed(daemon, "refused: " + (killed != null ? killed : started), -1);
    }
    long deadline = killedAt + options.recoveryTimeout().toNanos();
    String waitingFor = "";
    while (System.nanoTime() < deadline) {
      waitingFor = notRecovered(victim, liveBefore);
      if (waitingFor.isEmpty()) {
        return new Killed(daemon, "done", (System.nanoTime() - killedAt) / 1_000_000);
      }
      Thread.sleep(POLL_MILLIS);
    }
    unrecovered = "the " + what + " kill at " + daemon;
    return new Killed(
        daemon,
        "timed out after "
            + options.recoveryTimeout().toSeconds()
            + " s waiting for the cluster to recover ("
            + waitingFor
            + ")",
        -1);
  }

  /**
   * What the cluster still lacks after {@code victim}'s kill, as read from the master and {@code
   * hbase:meta}; empty once it has recovered.
   */
  private String notRecovered(ServerName victim, int liveBefore) {
    try (Admin admin = connection.getAdmin()) {
      ClusterMetrics metrics =
          admin.getClusterMetrics(
              EnumSet.of(
                  ClusterMetrics.Option.MASTER,
                  ClusterMetrics.Option.LIVE_SERVERS,
                  ClusterMetrics.Option.REGIONS_IN_TRANSITION));
      Set<ServerName> live = metrics.getLiveServerMetrics().keySet();
      if (live.contains(victim) || victim.equals(metrics.getMasterName())) {
        return "the master has not noticed the kill yet";
      }
      if (live.size() < liveBefore) {
        return live.size() + " of " + liveBefore + " RegionServers live";
      }
      for (RegionState state : metrics.getRegionStatesInTransition()) {
        if (tables.contains(state.getRegion().getTable())) {
          return "region " + state.getRegion().getEncodedName() + " in transition";
        }
      }
      for (TableName table : tables) {
        try (RegionLocator locator = connection.getRegionLocator(table)) {
          for (HRegionLocation location : locator.getAllRegionLocations()) {
            if (location.getServerName() == null || !live.contains(location.getServerName())) {
              return "region " + location.getRegion().getEncodedName() + " not on a live server";
            }
          }
        }
      }
      return "";
    } catch (IOException | RuntimeException e) {
      return "no answer: " + RegionChaos.firstLine(e);
    }
  }

  /** Runs a shell command to its end (bounded); null if it exited 0, else what went wrong. */
  private String run(String what, String command) throws InterruptedException {
    Path out = null;
    try {
      out = Files.createTempFile("casebook-chaos-", ".log");
      Process process =
          new ProcessBuilder("sh", "-c", command)
              .redirectErrorStream(true)
              .redirectOutput(out.toFile())
              .start();
      long timeout = options.recoveryTimeout().toMillis();
      boolean ended = process.waitFor(timeout, TimeUnit.MILLISECONDS);
      if (!ended) {
        process.destroyForcibly();
      }
      String output = Files.readString(out).strip();
      LOG.info(
          "region chaos: {}: {}\n{}", what, ended ? "exit " + process.exitValue() : "", output);
      if (!ended) {
        return what + " did not end within " + timeout / 1000 + " s";
      }
      if (process.exitValue() != 0) {
        String last = output.substring(output.lastIndexOf('\n') + 1);
        return what + " exited " + process.exitValue() + (last.isEmpty() ? "" : ": " + last);
      }
      return null;
    } catch (IOException e) {
      return what + ": " + RegionChaos.firstLine(e);
    } finally {
      if (out != null) {
        try {
          Files.deleteIfExists(out);
        } catch (IOException e) {
          LOG.debug("could not delete {}", out, e);
        }
      }
    }
  }
}
