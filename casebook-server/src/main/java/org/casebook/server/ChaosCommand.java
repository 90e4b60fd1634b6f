package org.casebook.server;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.hadoop.hbase.TableName;
import org.casebook.core.HBaseRuntime;
import org.casebook.core.InvalidInputException;
import org.casebook.core.chaos.ChaosAction;
import org.casebook.core.chaos.ChaosEvent;
import org.casebook.core.chaos.ProcessCommands;
import org.casebook.core.chaos.RegionChaos;
import org.casebook.core.cli.ResultFiles;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code casebook chaos}: HBase's region events on purpose, on the tables of running systems, for
 * an operator watching their own load (or a test harness) ride through them.
 */
@Command(
    name = "chaos",
    mixinStandardHelpOptions = true,
    description = {
      "Split, merge, flush, compact and move the regions of the chosen systems' tables while they"
          + " serve, as HBase does in production (HBase's ChaosMonkey region actions), and report"
          + " every action and what HBase made of it.",
      "Actions come in rounds: each round takes every chosen action once, in an order shuffled"
          + " by the seed, each on a region of a table picked by the same seed. The seed is printed;"
          + " the same seed on the same regions repeats the run.",
      "Run it beside a serve and its clients; the clients' errors and each system's checks are"
          + " theirs to report. Moves need two RegionServers or more (a cluster); embedded, they are"
          + " skipped.",
      "Actions: split (at one of the region's own rows), merge (two adjacent regions), flush,"
          + " compact, major-compact, move; on a cluster whose daemons it may kill, also"
          + " kill-regionserver and kill-master.",
      "The kills run the operator's shell commands, since the daemons are other processes: kill -9"
          + " a RegionServer the seed picks among the live ones (never the last one), wait the"
          + " restart pause, start it again, then wait until every region of the tables is online on"
          + " a live RegionServer and report that recovery time. The master likewise, once a run"
          + " by default. {host} and {port} in a command stand for the daemon acted on. Given the"
          + " commands, the kills join the default actions.",
      "On the cluster kit (KIT its directory, W its work directory, RegionServer N's pid in"
          + " W/pids/regionserverN.pid, the first's in regionserver.pid, ports 29620, 29630 ...):",
      "  --kill-regionserver-command 'n=$(( ({port} - 29620) / 10 + 1 ));"
          + " kill -9 $(cat $W/pids/regionserver$([ $n = 1 ] || echo $n).pid)'",
      "  --start-regionserver-command 'CLUSTER_REGIONSERVERS=2 $KIT/up.sh'",
      "  --kill-master-command 'kill -9 $(cat $W/pids/hmaster.pid)'",
      "  --start-master-command 'CLUSTER_REGIONSERVERS=2 $KIT/up.sh'"
    })
final class ChaosCommand implements Callable<Integer> {
  @Option(
      names = "--systems",
      split = ",",
      paramLabel = "NAME",
      description = "Systems whose tables to act on (default: all).")
  List<String> systems = new ArrayList<>();

  @Option(
      names = "--seconds",
      paramLabel = "N",
      defaultValue = "60",
      description = "How long to act (default ${DEFAULT-VALUE}).")
  int seconds;

  @Option(
      names = "--pause-ms",
      paramLabel = "MS",
      defaultValue = "2000",
      description = "Pause after each action (default ${DEFAULT-VALUE}).")
  int pauseMillis;

  @Option(
      names = "--seed",
      paramLabel = "N",
      description = "The seed (default: one drawn at random, printed).")
  Long seed;

  @Option(
      names = "--actions",
      split = ",",
      paramLabel = "ACTION",
      description = "Actions to take (default: all).")
  List<String> actions = new ArrayList<>();

  @Option(
      names = "--action-timeout-seconds",
      paramLabel = "N",
      defaultValue = "60",
      description =
          "How long to wait for a split or merge before recording it as timed out (default ${DEFAULT-VALUE}).")
  int actionTimeoutSeconds;

  @Option(
      names = "--kill-regionserver-command",
      paramLabel = "COMMAND",
      description =
          "Shell command that kills one RegionServer at once, {host} and {port} filled in (needs"
              + " --start-regionserver-command).")
  String killRegionServer = "";

  @Option(
      names = "--start-regionserver-command",
      paramLabel = "COMMAND",
      description =
          "Shell command that starts the killed RegionServer again and returns once it started.")
  String startRegionServer = "";

  @Option(
      names = "--kill-master-command",
      paramLabel = "COMMAND",
      description =
          "Shell command that kills the active HMaster at once (needs --start-master-command).")
  String killMaster = "";

  @Option(
      names = "--start-master-command",
      paramLabel = "COMMAND",
      description = "Shell command that starts the HMaster again.")
  String startMaster = "";

  @Option(
      names = "--restart-pause-seconds",
      paramLabel = "N",
      defaultValue = "10",
      description =
          "How long a killed daemon stays down before its start (default ${DEFAULT-VALUE}).")
  int restartPauseSeconds;

  @Option(
      names = "--recovery-timeout-seconds",
      paramLabel = "N",
      defaultValue = "180",
      description =
          "How long to wait, from a kill, for every region to be online again; also the bound of"
              + " each command (default ${DEFAULT-VALUE}).")
  int recoveryTimeoutSeconds;

  @Option(
      names = "--master-kills",
      paramLabel = "N",
      defaultValue = "1",
      description = "How many times a run may kill the master (default ${DEFAULT-VALUE}).")
  int masterKills;

  private final CliContext context;

  ChaosCommand(CliContext context) {
    this.context = context;
  }

  @Override
  public Integer call() throws Exception {
    InvalidInputException.check(
        seconds >= 1 && seconds <= 7 * 24 * 3600, "seconds", "--seconds must be 1..604800");
    InvalidInputException.check(
        pauseMillis >= 0 && pauseMillis <= 3_600_000, "pause-ms", "--pause-ms must be 0..3600000");
    InvalidInputException.check(
        actionTimeoutSeconds >= 1 && actionTimeoutSeconds <= 3600,
        "action-timeout-seconds",
        "--action-timeout-seconds must be 1..3600");
    InvalidInputException.check(
        restartPauseSeconds >= 0 && restartPauseSeconds <= 3600,
        "restart-pause-seconds",
        "--restart-pause-seconds must be 0..3600");
    InvalidInputException.check(
        recoveryTimeoutSeconds >= 1 && recoveryTimeoutSeconds <= 3600,
        "recovery-timeout-seconds",
        "--recovery-timeout-seconds must be 1..3600");
    InvalidInputException.check(
        masterKills >= 0 && masterKills <= 1000, "master-kills", "--master-kills must be 0..1000");
    ProcessCommands processes = processCommands();
    List<ChaosAction> chosen = chosenActions(processes);
    long s = seed != null ? seed : new java.security.SecureRandom().nextLong();
    Map<String, List<TableName>> declared = context.declaredTables(systems);
    HBaseRuntime runtime = context.runtimeOnly();
    List<TableName> tables = new ArrayList<>();
    try (org.apache.hadoop.hbase.client.Admin admin = runtime.connection().getAdmin()) {
      for (List<TableName> ts : declared.values()) {
        for (TableName t : ts) {
          if (admin.tableExists(t)) {
            tables.add(t);
          }
        }
      }
    }
    InvalidInputException.check(
        !tables.isEmpty(),
        "systems",
        "none of the tables of " + String.join(", ", declared.keySet()) + " exists yet");
    System.err.printf(
        "chaos: seed %d, %d tables of %s, %d s, actions %s%n",
        s,
        tables.size(),
        String.join(", ", declared.keySet()),
        seconds,
        String.join(",", chosen.stream().map(ChaosAction::label).toList()));
    List<ChaosEvent> events;
    try (RegionChaos chaos =
        RegionChaos.start(
            runtime.connection(),
            tables,
            new RegionChaos.Options(
                s,
                Duration.ofMillis(pauseMillis),
                chosen,
                Duration.ofSeconds(actionTimeoutSeconds),
                processes,
                Duration.ofSeconds(restartPauseSeconds),
                Duration.ofSeconds(recoveryTimeoutSeconds),
                masterKills))) {
      Thread.sleep(seconds * 1000L);
      events = chaos.stop();
    }
    System.out.print(table(events));
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("seed", s);
    json.put("seconds", seconds);
    json.put("systems", new ArrayList<>(declared.keySet()));
    json.put("tables", tables.stream().map(TableName::getNameAsString).toList());
    json.put("events", events.stream().map(ChaosEvent::toJson).toList());
    System.out.println("JSON: " + ResultFiles.write("chaos", json));
    return 0;
  }

  /** The kill and start commands given, checked: a kill needs its start command. */
  ProcessCommands processCommands() {
    try {
      return new ProcessCommands(killRegionServer, startRegionServer, killMaster, startMaster);
    } catch (IllegalArgumentException e) {
      throw new InvalidInputException(
          killRegionServer.isBlank() != startRegionServer.isBlank()
              ? "kill-regionserver-command"
              : "kill-master-command",
          e.getMessage());
    }
  }

  /**
   * The actions asked for; by default the region actions and the kills whose commands were given. A
   * kill asked for without its commands is refused rather than silently skipped.
   */
  List<ChaosAction> chosenActions(ProcessCommands processes) {
    if (actions.isEmpty()) {
      List<ChaosAction> all = new ArrayList<>(ChaosAction.regionActions());
      if (processes.killsRegionServers()) {
        all.add(ChaosAction.KILL_REGIONSERVER);
      }
      if (processes.killsMaster()) {
        all.add(ChaosAction.KILL_MASTER);
      }
      return all;
    }
    List<ChaosAction> out = new ArrayList<>();
    for (String a : actions) {
      ChaosAction action =
          java.util.Arrays.stream(ChaosAction.values())
              .filter(x -> x.label().equals(a.strip()))
              .findFirst()
              .orElseThrow(
                  () ->
                      new InvalidInputException(
                          "actions",
                          "no action '"
                              + a
                              + "' (there are "
                              + String.join(
                                  ", ",
                                  java.util.Arrays.stream(ChaosAction.values())
                                      .map(ChaosAction::label)
                                      .toList())
                              + ")"));
      InvalidInputException.check(
          action != ChaosAction.KILL_REGIONSERVER || processes.killsRegionServers(),
          "actions",
          "kill-regionserver needs --kill-regionserver-command and --start-regionserver-command");
      InvalidInputException.check(
          action != ChaosAction.KILL_MASTER || processes.killsMaster(),
          "actions",
          "kill-master needs --kill-master-command and --start-master-command");
      if (!out.contains(action)) {
        out.add(action);
      }
    }
    return out;
  }

  /**
   * Per action: how many were done, skipped, refused, timed out; then each kill that was not
   * skipped, with its daemon and recovery time.
   */
  static String table(List<ChaosEvent> events) {
    Map<ChaosAction, long[]> counts = new EnumMap<>(ChaosAction.class);
    for (ChaosEvent e : events) {
      long[] c = counts.computeIfAbsent(e.action(), a -> new long[4]);
      c[e.done() ? 0 : e.skipped() ? 1 : e.timedOut() ? 3 : 2]++;
    }
    StringBuilder b = new StringBuilder();
    b.append(
        String.format(
            "%-17s %6s %8s %8s %10s%n", "action", "done", "skipped", "refused", "timed out"));
    counts.forEach(
        (a, c) ->
            b.append(String.format("%-17s %6d %8d %8d %10d%n", a.label(), c[0], c[1], c[2], c[3])));
    for (ChaosEvent e : events) {
      if (e.action().killsProcess() && !e.skipped()) {
        b.append(
            String.format(
                java.util.Locale.ROOT,
                "%-17s %-21s at %8.1f s: %s%s%n",
                e.action().label(),
                e.region(),
                e.atMillis() / 1000.0,
                e.outcome(),
                e.recovered()
                    ? String.format(
                        java.util.Locale.ROOT, ", recovered in %.1f s", e.recoveryMillis() / 1000.0)
                    : ""));
      }
    }
    return b.toString();
  }
}
