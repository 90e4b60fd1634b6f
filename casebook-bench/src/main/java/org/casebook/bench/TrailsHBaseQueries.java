package org.casebook.bench;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.casebook.bench.TrailsSteps.Step;
import org.casebook.bench.TrailsSteps.StepUsers;
import org.casebook.core.page.PageRequest;
import org.casebook.trails.HistoryLayout;
import org.casebook.trails.PlanMode;
import org.casebook.trails.TrailQuery;
import org.casebook.trails.TrailsService;
import org.casebook.trails.gen.LogGenerator;

/**
 * {@code bench trails}' HBase queries, through the system's Java API on the loaded tables: the
 * warm-up, one user's trail with both plans, 100 users' trails, the seed-000 task (directly and as
 * MapReduce), and the seed-004 history queries on both designs.
 */
final class TrailsHBaseQueries {
  /** The 000 task's users and how many of them were active (PostgreSQL's answer is checked). */
  record Task(List<String> users, int active) {}

  private final TrailsService trails;
  private final TrailsBenchmark.Options o;
  private final TrailsSteps steps;
  private final LocalDate firstDay;
  private final LocalDate lastDay;

  TrailsHBaseQueries(
      TrailsService trails,
      TrailsBenchmark.Options options,
      TrailsSteps steps,
      LocalDate firstDay) {
    this.trails = trails;
    this.o = options;
    this.steps = steps;
    this.firstDay = firstDay;
    this.lastDay = firstDay.plusDays(options.days - 1);
  }

  /** Every HBase query step, in order, into {@code table} and {@code json}. */
  Task run(BenchTable table, Map<String, Object> json) throws Exception {
    warmUp(json);
    oneUsersTrail(table);
    hundredUsersTrails(table, json);
    Task task = task(table);
    histories(table);
    return task;
  }

  /**
   * Warm-up, timed by the clock: JIT and block cache. PostgreSQL gets as long (its JDBC driver runs
   * in this JVM too). With 600 queries the p50s were still falling.
   */
  private void warmUp(Map<String, Object> json) {
    // Its own random numbers: the timed queries then ask for the same users whatever the
    // number of warm-up rounds.
    SplittableRandom warmRnd = new SplittableRandom(6);
    long warmQueries = 0;
    long warmUntil = System.nanoTime() + o.warmupSeconds * 1_000_000_000L;
    for (long n = 1; System.nanoTime() < warmUntil; n++) {
      String uid = steps.sampledUser(warmRnd);
      TrailQuery q = new TrailQuery(List.of(uid), firstDay, lastDay, Set.of(), Set.of());
      trails.trails(q, PlanMode.GETS);
      trails.trails(q, PlanMode.SCAN);
      for (HistoryLayout layout : HistoryLayout.values()) {
        trails.latest(uid, PageRequest.first(20), layout);
      }
      warmQueries += 2 + HistoryLayout.values().length;
      if (n % 17 == 0) { // now and then, the multi-user path too
        trails.trails(
            new TrailQuery(steps.hundredUsers(warmRnd), firstDay, lastDay, Set.of(), Set.of()));
        warmQueries++;
      }
    }
    json.put("warmupQueries", warmQueries);
  }

  /** One user's trail over every day, with the seed's Gets and with one Scan. */
  private void oneUsersTrail(BenchTable table) throws Exception {
    for (PlanMode plan : List.of(PlanMode.GETS, PlanMode.SCAN)) {
      long[] events = {0};
      Latency one =
          steps
              .userStep(
                  StepUsers.ONE_TRAIL,
                  events,
                  uid ->
                      trails
                          .trails(
                              new TrailQuery(List.of(uid), firstDay, lastDay, Set.of(), Set.of()),
                              plan)
                          .get(uid)
                          .events()
                          .size())
              .latency();
      table.add(
          "HBase: one user's "
              + o.days
              + "-day trail, "
              + (plan == PlanMode.GETS ? "Gets" : "Scan"),
          one.count(),
          "queries",
          0,
          one,
          String.format(
              Locale.ROOT,
              "%.1f events each; %s",
              (double) events[0] / one.count(),
              plan == PlanMode.GETS
                  ? (o.days * 4) + " Gets in one batch (seed plan)"
                  : "one bounded Scan"));
    }
  }

  private void hundredUsersTrails(BenchTable table, Map<String, Object> json) throws Exception {
    Step hundredStep =
        TrailsSteps.step(
            o.multiUserSamples,
            StepUsers.HUNDRED,
            (users, timed) -> {
              List<String> us = steps.hundredUsers(users);
              long s = System.nanoTime();
              trails.trails(new TrailQuery(us, firstDay, lastDay, Set.of(), Set.of()));
              return System.nanoTime() - s;
            });
    Latency hundred = hundredStep.latency();
    double cpuMs = hundredStep.cpuMsPerQuery();
    json.put("multiUserCpuMsPerQuery", cpuMs);
    table.add(
        "HBase: 100 users' trails",
        hundred.count(),
        "queries",
        0,
        hundred,
        String.format(Locale.ROOT, "process CPU %.2f ms per query", cpuMs));
  }

  /** The seed-000 task, directly and (unless {@code --no-mapreduce}) as a MapReduce job. */
  private Task task(BenchTable table) {
    List<String> activeUsers = new ArrayList<>();
    for (int i = 0; i < o.activeUsers; i++) {
      activeUsers.add(LogGenerator.userId(i * (o.users / o.activeUsers)));
    }
    List<Double> taskRuns = new ArrayList<>();
    int activeDirect = 0;
    // One untimed run, then the median of TASK_RUNS: one run alone moved by 1.5x between
    // otherwise equal benchmark runs.
    for (int run = 0; run <= TrailsSteps.TASK_RUNS; run++) {
      long t = System.nanoTime();
      activeDirect = trails.active(activeUsers, firstDay, lastDay).size();
      if (run > 0) {
        taskRuns.add((System.nanoTime() - t) / 1e9);
      }
    }
    table.add(
        "HBase: 000 task, direct",
        o.activeUsers,
        "users",
        TrailsSteps.median(taskRuns),
        null,
        activeDirect + " active; median of " + TrailsSteps.runs(taskRuns));
    if (!o.noMapReduce) {
      long s = System.nanoTime();
      int activeMr =
          trails
              .activeMapReduce(
                  activeUsers,
                  firstDay,
                  lastDay,
                  o.work.toAbsolutePath().resolve("mr"),
                  where -> System.out.println("000 task: " + where))
              .size();
      table.add(
          "HBase: 000 task, MapReduce (local runner)",
          o.activeUsers,
          "users",
          (System.nanoTime() - s) / 1e9,
          null,
          activeMr + " active");
    }
    return new Task(List.copyOf(activeUsers), activeDirect);
  }

  /** The seed-004 history queries on both designs: the latest 20 and every record of a user. */
  private void histories(BenchTable table) throws Exception {
    for (HistoryLayout layout : HistoryLayout.values()) {
      Latency latest =
          steps
              .userStep(
                  StepUsers.LATEST,
                  null,
                  uid -> trails.latest(uid, PageRequest.first(20), layout).items().size())
              .latency();
      Latency all =
          steps
              .userStep(StepUsers.ALL, null, uid -> trails.all(uid, 100_000, layout).size())
              .latency();
      String name = layout.name().toLowerCase(Locale.ROOT);
      table.add("HBase 004 " + name + ": latest 20", latest.count(), "queries", 0, latest, "");
      table.add(
          "HBase 004 " + name + ": all records of a user", all.count(), "queries", 0, all, "");
    }
  }
}
