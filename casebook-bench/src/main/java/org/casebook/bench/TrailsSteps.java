package org.casebook.bench;

import java.sql.PreparedStatement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import org.casebook.trails.gen.LogGenerator;

/**
 * How {@code bench trails} times a step, on either side: each step's users drawn from a seed of its
 * own, the step run untimed first, then timed, with the process's CPU time per query.
 */
final class TrailsSteps {
  /** Timed runs of the seed-000 task on each side (after one untimed run). */
  static final int TASK_RUNS = 5;

  /**
   * The users of each timed step: a fixed seed per step, the same on both sides, so that HBase and
   * PostgreSQL (and the Gets and Scan plans) answer for the same users whatever ran before; the
   * untimed pass draws from the seed + 1,000.
   */
  enum StepUsers {
    ONE_TRAIL(11),
    HUNDRED(12),
    LATEST(13),
    ALL(14);

    private final long seed;

    StepUsers(long seed) {
      this.seed = seed;
    }
  }

  /**
   * One query of a step, its users drawn from {@code users}; returns its own latency in ns ({@code
   * timed}: whether it counts).
   */
  @FunctionalInterface
  interface StepQuery {
    long run(SplittableRandom users, boolean timed) throws Exception;
  }

  /**
   * A timed step's latencies, and the whole process's CPU time per timed query (client, region
   * server, collector: steadier from run to run than the latencies, which on two cores move with
   * whatever else runs).
   */
  record Step(Latency latency, double cpuMsPerQuery) {}

  /** A single-user query; returns what it read (events). */
  @FunctionalInterface
  interface UserQuery {
    int run(String uid) throws Exception;
  }

  private final int users;
  private final int samples;

  /**
   * @param users the users of the generated log
   * @param samples timed single-user queries per step
   */
  TrailsSteps(int users, int samples) {
    this.users = users;
    this.samples = samples;
  }

  /**
   * Runs a step's query {@code n} times untimed (users from another draw), then {@code n} times
   * timed. The JIT recompiles the read path when the shape of the queries changes: the first
   * hundred 100-user queries after the single-user ones took 7.4 ms of CPU each, against 4.8 ms
   * over a thousand.
   */
  static Step step(int n, StepUsers users, StepQuery query) throws Exception {
    SplittableRandom warm = new SplittableRandom(users.seed + 1000);
    for (int i = 0; i < n; i++) {
      query.run(warm, false);
    }
    SplittableRandom timed = new SplittableRandom(users.seed);
    Latency latency = new Latency();
    long cpuBefore = processCpuNanos();
    for (int i = 0; i < n; i++) {
      latency.recordNanos(query.run(timed, true));
    }
    return new Step(latency, (processCpuNanos() - cpuBefore) / 1e6 / n);
  }

  /** One of the generator's first 2,000 users (its busiest), as every single-user step asks. */
  String sampledUser(SplittableRandom draw) {
    return LogGenerator.userId(draw.nextInt(Math.min(users, 2000)));
  }

  /** 100 users drawn from all of them. */
  List<String> hundredUsers(SplittableRandom rnd) {
    List<String> us = new ArrayList<>(100);
    for (int k = 0; k < 100; k++) {
      us.add(LogGenerator.userId(rnd.nextInt(users)));
    }
    return us;
  }

  /**
   * A step of single-user queries on HBase; {@code read}, when given, sums what the timed queries
   * read.
   */
  Step userStep(StepUsers stepUsers, long[] read, UserQuery query) throws Exception {
    return step(
        samples,
        stepUsers,
        (u, timed) -> {
          String uid = sampledUser(u);
          long s = System.nanoTime();
          int n = query.run(uid);
          long nanos = System.nanoTime() - s;
          if (timed && read != null) {
            read[0] += n;
          }
          return nanos;
        });
  }

  /** A step of PostgreSQL single-user queries: {@code ps} takes the uid as its first parameter. */
  Latency userStep(StepUsers stepUsers, PreparedStatement ps) throws Exception {
    return step(
            samples,
            stepUsers,
            (u, timed) -> {
              ps.setString(1, sampledUser(u));
              long s = System.nanoTime();
              EmbeddedPostgres.drain(ps);
              return System.nanoTime() - s;
            })
        .latency();
  }

  /** CPU time of this process so far (every thread, the embedded HBase's too). */
  private static long processCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean)
            java.lang.management.ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }

  static double median(List<Double> values) {
    List<Double> sorted = new ArrayList<>(values);
    sorted.sort(null);
    return sorted.get(sorted.size() / 2);
  }

  static String runs(List<Double> seconds) {
    return seconds.size()
        + " runs ("
        + String.join(
            ", ", seconds.stream().map(v -> String.format(Locale.ROOT, "%.3f", v)).toList())
        + " s)";
  }
}
