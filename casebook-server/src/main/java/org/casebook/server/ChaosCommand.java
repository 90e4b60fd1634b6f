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
          + " compact, major-compact, move."
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
    List<ChaosAction> chosen = chosenActions();
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
                Duration.ofSeconds(actionTimeoutSeconds)))) {
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

  private List<ChaosAction> chosenActions() {
    if (actions.isEmpty()) {
      return List.of(ChaosAction.values());
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
      if (!out.contains(action)) {
        out.add(action);
      }
    }
    return out;
  }

  /** Per action: how many were done, skipped, refused, timed out. */
  static String table(List<ChaosEvent> events) {
    Map<ChaosAction, long[]> counts = new EnumMap<>(ChaosAction.class);
    for (ChaosEvent e : events) {
      long[] c = counts.computeIfAbsent(e.action(), a -> new long[4]);
      c[e.done() ? 0 : e.skipped() ? 1 : e.timedOut() ? 3 : 2]++;
    }
    StringBuilder b = new StringBuilder();
    b.append(
        String.format(
            "%-14s %6s %8s %8s %10s%n", "action", "done", "skipped", "refused", "timed out"));
    counts.forEach(
        (a, c) ->
            b.append(String.format("%-14s %6d %8d %8d %10d%n", a.label(), c[0], c[1], c[2], c[3])));
    return b.toString();
  }
}
