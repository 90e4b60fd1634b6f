package org.casebook.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Array;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.apache.hadoop.hbase.client.Admin;
import org.casebook.core.InvalidInputException;
import org.casebook.core.Json;
import org.casebook.core.SystemContext;
import org.casebook.core.cli.Progress;
import org.casebook.core.page.PageRequest;
import org.casebook.core.schema.SchemaManager;
import org.casebook.core.schema.TableSpec;
import org.casebook.trails.Event;
import org.casebook.trails.HistoryLayout;
import org.casebook.trails.IngestReport;
import org.casebook.trails.LogParser;
import org.casebook.trails.TrailQuery;
import org.casebook.trails.TrailsService;
import org.casebook.trails.gen.LogGenerator;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyManager;
import picocli.CommandLine.Option;

/**
 * {@code bench trails}: generate logs, ingest them, then the seed's queries on HBase — and the same
 * data and queries on PostgreSQL 16 in the same run, loaded with COPY and indexed as a DBA would
 * for these queries. Both sides are timed from a single client thread.
 */
final class TrailsBenchmark {
  static final String NAMESPACE = "casebook_bench_trails";
  private static final LocalDate FIRST_DAY = LocalDate.parse("2026-09-01");

  /**
   * Sizes; the defaults finish in a few minutes on a 2-core machine; {@code --records 100000000} is
   * the seed's.
   */
  static final class Options {
    @Option(
        paramLabel = "N",
        names = "--records",
        defaultValue = "300000",
        description = "Log lines (default ${DEFAULT-VALUE}).")
    long records;

    @Option(
        paramLabel = "N",
        names = "--users",
        defaultValue = "20000",
        description = "Users (default ${DEFAULT-VALUE}).")
    int users;

    @Option(
        paramLabel = "N",
        names = "--days",
        defaultValue = "10",
        description = "Days (default ${DEFAULT-VALUE}).")
    int days;

    @Option(
        paramLabel = "N",
        names = "--samples",
        defaultValue = "500",
        description = "Timed single-user queries (default ${DEFAULT-VALUE}).")
    int samples;

    @Option(
        paramLabel = "N",
        names = "--active-users",
        defaultValue = "1000",
        description = "Users given to the seed-000 task (default ${DEFAULT-VALUE}).")
    int activeUsers;

    @Option(
        paramLabel = "N",
        names = "--raw-rows",
        defaultValue = "100000",
        description = "Rows of the raw ceiling run; 0 skips it.")
    int rawRows;

    @Option(names = "--no-postgres", description = "Skip the PostgreSQL side.")
    boolean noPostgres;

    @Option(names = "--no-mapreduce", description = "Skip the MapReduce run of the seed-000 task.")
    boolean noMapReduce;

    @Option(
        paramLabel = "DIR",
        names = "--work",
        defaultValue = "bench-work/trails",
        description = "Scratch directory (default ${DEFAULT-VALUE}).")
    Path work;

    void validate() {
      InvalidInputException.check(records >= 1000, "records", "--records must be at least 1000");
      InvalidInputException.check(users >= 10, "users", "--users must be at least 10");
      InvalidInputException.check(days >= 1 && days <= 366, "days", "--days must be 1..366");
      InvalidInputException.check(samples >= 10, "samples", "--samples must be at least 10");
      InvalidInputException.check(
          activeUsers >= 1 && activeUsers <= users,
          "active-users",
          "--active-users must be 1..users");
    }
  }

  private final SystemContext context;
  private final Options o;

  TrailsBenchmark(SystemContext context, Options options) {
    this.context = context;
    this.o = options;
    options.validate();
  }

  Map<String, Object> run() throws Exception {
    Map<String, Object> json = new LinkedHashMap<>();
    BenchTable table =
        new BenchTable(
            String.format(
                Locale.ROOT,
                "bench trails: %,d lines, %,d users, %d days",
                o.records,
                o.users,
                o.days));
    RawBenchmark.Figures raw = null;
    if (o.rawRows > 0) {
      raw = RawBenchmark.ceiling(context.connection(), o.rawRows);
      json.put("raw", raw.table().toJson());
    }
    Files.createDirectories(o.work);
    Path log = o.work.resolve("logs.jsonl");
    long t0 = System.nanoTime();
    LogGenerator.Written written;
    try (Progress p = Progress.start("generate", o.records, "lines")) {
      written =
          LogGenerator.write(
              new LogGenerator.Spec(o.users, o.days, o.records, 0.01, FIRST_DAY, 11), log, p);
    }
    table.add(
        "generate log (1% malformed)",
        written.lines(),
        "lines",
        (System.nanoTime() - t0) / 1e9,
        null,
        String.format(Locale.ROOT, "%,d MB", written.bytes() >> 20));

    SchemaManager schemas = new SchemaManager(context.connection());
    List<TableSpec> specs = TrailsService.schemas(NAMESPACE);
    specs.forEach(s -> schemas.drop(s.name()));
    schemas.ensureAll(specs);
    TrailsService trails = new TrailsService(context, NAMESPACE);
    SplittableRandom rnd = new SplittableRandom(5);
    LocalDate lastDay = FIRST_DAY.plusDays(o.days - 1);
    try {
      IngestReport report;
      try (Progress p = Progress.start("ingest", written.bytes(), "bytes")) {
        report =
            trails.ingest(
                log,
                new TrailsService.IngestOptions(
                    o.work.resolve("rejects.tsv"), TrailsService.History.BOTH, 2),
                p);
      }
      table.add(
          "HBase ingest (events + tall + wide)",
          report.cells(),
          "cells",
          report.seconds(),
          null,
          String.format(
              Locale.ROOT, "%,d records, %,d rejected", report.accepted(), report.rejected()));
      json.put("ingest", report.toJson());
      settle(specs);
      // Warm-up: JIT and block cache, as PostgreSQL's shared buffers are warm after its load.
      for (int i = 0; i < Math.min(o.samples, 300); i++) {
        String uid = LogGenerator.userId(rnd.nextInt(Math.min(o.users, 2000)));
        trails.trails(
            new TrailQuery(List.of(uid), FIRST_DAY, lastDay, Set.of(), Set.of()),
            TrailsService.Plan.GETS);
        trails.trails(
            new TrailQuery(List.of(uid), FIRST_DAY, lastDay, Set.of(), Set.of()),
            TrailsService.Plan.SCAN);
      }
      for (TrailsService.Plan plan : List.of(TrailsService.Plan.GETS, TrailsService.Plan.SCAN)) {
        Latency one = new Latency();
        long events = 0;
        for (int i = 0; i < o.samples; i++) {
          String uid = LogGenerator.userId(rnd.nextInt(Math.min(o.users, 2000)));
          long s = System.nanoTime();
          events +=
              trails
                  .trails(
                      new TrailQuery(List.of(uid), FIRST_DAY, lastDay, Set.of(), Set.of()), plan)
                  .get(uid)
                  .events()
                  .size();
          one.recordNanos(System.nanoTime() - s);
        }
        table.add(
            "HBase: one user's "
                + o.days
                + "-day trail, "
                + (plan == TrailsService.Plan.GETS ? "Gets" : "Scan"),
            one.count(),
            "queries",
            0,
            one,
            String.format(
                Locale.ROOT,
                "%.1f events each; %s",
                (double) events / one.count(),
                plan == TrailsService.Plan.GETS
                    ? (o.days * 4) + " Gets in one batch (seed plan)"
                    : "one bounded Scan"));
      }

      Latency hundred = new Latency();
      for (int i = 0; i < 20; i++) {
        List<String> us = new ArrayList<>();
        for (int k = 0; k < 100; k++) {
          us.add(LogGenerator.userId(rnd.nextInt(o.users)));
        }
        long s = System.nanoTime();
        trails.trails(new TrailQuery(us, FIRST_DAY, lastDay, Set.of(), Set.of()));
        hundred.recordNanos(System.nanoTime() - s);
      }
      table.add("HBase: 100 users' trails", hundred.count(), "queries", 0, hundred, "");

      List<String> activeUsers = new ArrayList<>();
      for (int i = 0; i < o.activeUsers; i++) {
        activeUsers.add(LogGenerator.userId(i * (o.users / o.activeUsers)));
      }
      List<Double> taskRuns = new ArrayList<>();
      int activeDirect = 0;
      // One untimed run, then the median of TASK_RUNS: one run alone moved by 1.5x between
      // otherwise equal benchmark runs.
      for (int run = 0; run <= TASK_RUNS; run++) {
        long t = System.nanoTime();
        activeDirect = trails.active(activeUsers, FIRST_DAY, lastDay).size();
        if (run > 0) {
          taskRuns.add((System.nanoTime() - t) / 1e9);
        }
      }
      table.add(
          "HBase: 000 task, direct",
          o.activeUsers,
          "users",
          median(taskRuns),
          null,
          activeDirect + " active; median of " + runs(taskRuns));
      if (!o.noMapReduce) {
        long s = System.nanoTime();
        int activeMr =
            trails
                .activeMapReduce(
                    activeUsers,
                    FIRST_DAY,
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
      for (HistoryLayout layout : HistoryLayout.values()) {
        Latency latest = new Latency();
        Latency all = new Latency();
        for (int i = 0; i < o.samples; i++) {
          String uid = LogGenerator.userId(rnd.nextInt(Math.min(o.users, 2000)));
          long t = System.nanoTime();
          trails.latest(uid, PageRequest.first(20), layout);
          latest.recordNanos(System.nanoTime() - t);
          t = System.nanoTime();
          trails.all(uid, 100_000, layout);
          all.recordNanos(System.nanoTime() - t);
        }
        String name = layout.name().toLowerCase(Locale.ROOT);
        table.add("HBase 004 " + name + ": latest 20", latest.count(), "queries", 0, latest, "");
        table.add(
            "HBase 004 " + name + ": all records of a user", all.count(), "queries", 0, all, "");
      }

      if (!o.noPostgres) {
        postgres(log, table, activeUsers, activeDirect);
      }
    } finally {
      schemas.dropNamespace(NAMESPACE);
    }
    json.put("results", table.toJson());
    System.out.println();
    if (raw != null) {
      System.out.print(raw.table().render());
      System.out.println();
    }
    System.out.print(table.render());
    System.out.println();
    System.out.print(ratios(table, raw, json));
    return json;
  }

  /**
   * Waits until the region servers have no compaction running on the tables (at most 2 minutes).
   */
  private void settle(List<TableSpec> specs) throws IOException, InterruptedException {
    try (Admin admin = context.connection().getAdmin()) {
      for (TableSpec s : specs) {
        admin.flush(s.name());
      }
      long deadline = System.currentTimeMillis() + 120_000;
      for (TableSpec s : specs) {
        while (admin.getCompactionState(s.name())
                != org.apache.hadoop.hbase.client.CompactionState.NONE
            && System.currentTimeMillis() < deadline) {
          Thread.sleep(250);
        }
      }
    }
  }

  private void postgres(Path log, BenchTable table, List<String> activeUsers, int activeExpected)
      throws Exception {
    try (EmbeddedPostgres pg = EmbeddedPostgres.start(o.work.toAbsolutePath(), "512MB");
        java.sql.Connection c = pg.connect()) {
      try (Statement st = c.createStatement()) {
        st.execute(
            "CREATE TABLE events (uid text NOT NULL, type smallint NOT NULL, ts timestamptz NOT NULL, fields jsonb NOT NULL)");
      }
      long t0 = System.nanoTime();
      long rows = copy(c, log);
      double loadSecs = (System.nanoTime() - t0) / 1e9;
      t0 = System.nanoTime();
      try (Statement st = c.createStatement()) {
        // The DBA's indexes: user + time serves trails, ranges and latest-N; type in front of time
        // serves account x behaviour x range. Built after the load, then statistics.
        st.execute("CREATE INDEX events_uid_ts ON events (uid, ts)");
        st.execute("CREATE INDEX events_uid_type_ts ON events (uid, type, ts)");
        st.execute("ANALYZE events");
      }
      double indexSecs = (System.nanoTime() - t0) / 1e9;
      table.add("PostgreSQL: COPY load", rows, "rows", loadSecs, null, "same cleaned records");
      table.add(
          "PostgreSQL: build 2 indexes + ANALYZE",
          1,
          "tables",
          indexSecs,
          null,
          "(uid, ts), (uid, type, ts)");
      table.add("PostgreSQL: load + index", rows, "rows", loadSecs + indexSecs, null, "");

      Timestamp from = Timestamp.from(FIRST_DAY.atStartOfDay(ZoneOffset.UTC).toInstant());
      Timestamp to =
          Timestamp.from(FIRST_DAY.plusDays(o.days).atStartOfDay(ZoneOffset.UTC).toInstant());
      SplittableRandom rnd = new SplittableRandom(5);
      Latency one = new Latency();
      try (PreparedStatement ps =
          c.prepareStatement(
              "SELECT type, ts, fields FROM events WHERE uid = ? AND ts >= ? AND ts < ? ORDER BY ts")) {
        for (int i = 0; i < o.samples; i++) {
          ps.setString(1, LogGenerator.userId(rnd.nextInt(Math.min(o.users, 2000))));
          ps.setTimestamp(2, from);
          ps.setTimestamp(3, to);
          long s = System.nanoTime();
          EmbeddedPostgres.drain(ps);
          one.recordNanos(System.nanoTime() - s);
        }
      }
      table.add(
          "PostgreSQL: one user's " + o.days + "-day trail",
          one.count(),
          "queries",
          0,
          one,
          "index (uid, ts)");
      Latency hundred = new Latency();
      try (PreparedStatement ps =
          c.prepareStatement(
              "SELECT uid, type, ts, fields FROM events WHERE uid = ANY(?) AND ts >= ? AND ts < ? ORDER BY uid, ts")) {
        for (int i = 0; i < 20; i++) {
          List<String> us = new ArrayList<>();
          for (int k = 0; k < 100; k++) {
            us.add(LogGenerator.userId(rnd.nextInt(o.users)));
          }
          Array arr = c.createArrayOf("text", us.toArray());
          ps.setArray(1, arr);
          ps.setTimestamp(2, from);
          ps.setTimestamp(3, to);
          long s = System.nanoTime();
          EmbeddedPostgres.drain(ps);
          hundred.recordNanos(System.nanoTime() - s);
        }
      }
      table.add("PostgreSQL: 100 users' trails", hundred.count(), "queries", 0, hundred, "");
      List<Double> taskRuns = new ArrayList<>();
      int active = 0;
      for (int run = 0; run <= TASK_RUNS; run++) {
        long s = System.nanoTime();
        try (PreparedStatement find =
                c.prepareStatement(
                    "SELECT uid FROM events WHERE uid = ANY(?) AND ts >= ? AND ts < ? "
                        + "GROUP BY uid HAVING count(DISTINCT type) = 4");
            PreparedStatement fetch =
                c.prepareStatement(
                    "SELECT uid, type, ts, fields FROM events WHERE uid = ANY(?) AND ts >= ? AND ts < ? ORDER BY uid, ts")) {
          find.setArray(1, c.createArrayOf("text", activeUsers.toArray()));
          find.setTimestamp(2, from);
          find.setTimestamp(3, to);
          List<String> found = new ArrayList<>();
          try (ResultSet rs = find.executeQuery()) {
            while (rs.next()) {
              found.add(rs.getString(1));
            }
          }
          active = found.size();
          fetch.setArray(1, c.createArrayOf("text", found.toArray()));
          fetch.setTimestamp(2, from);
          fetch.setTimestamp(3, to);
          EmbeddedPostgres.drain(fetch);
        }
        if (run > 0) {
          taskRuns.add((System.nanoTime() - s) / 1e9);
        }
      }
      table.add(
          "PostgreSQL: 000 task (GROUP BY + fetch)",
          o.activeUsers,
          "users",
          median(taskRuns),
          null,
          active
              + " active; median of "
              + runs(taskRuns)
              + (active == activeExpected
                  ? " (same as HBase)"
                  : " (HBase found " + activeExpected + ")"));
      Latency latest = new Latency();
      try (PreparedStatement ps =
          c.prepareStatement(
              "SELECT type, ts, fields FROM events WHERE uid = ? ORDER BY ts DESC LIMIT 20")) {
        for (int i = 0; i < o.samples; i++) {
          ps.setString(1, LogGenerator.userId(rnd.nextInt(Math.min(o.users, 2000))));
          long t = System.nanoTime();
          EmbeddedPostgres.drain(ps);
          latest.recordNanos(System.nanoTime() - t);
        }
      }
      table.add("PostgreSQL: latest 20", latest.count(), "queries", 0, latest, "");
    }
  }

  /** Streams the cleaned records (LogParser, as HBase ingest does) into COPY, in chunks. */
  private static long copy(java.sql.Connection c, Path log) throws IOException, SQLException {
    CopyManager copy = c.unwrap(PGConnection.class).getCopyAPI();
    long rows = 0;
    StringBuilder chunk = new StringBuilder(1 << 20);
    try (BufferedReader r = Files.newBufferedReader(log, StandardCharsets.ISO_8859_1)) {
      String raw;
      while ((raw = r.readLine()) != null) {
        String line = new String(raw.getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8);
        if (line.indexOf('\uFFFD') >= 0) {
          continue; // invalid UTF-8: rejected by the HBase ingest too
        }
        LogParser.Parsed p = LogParser.parse(line);
        if (p.event().isEmpty()) {
          continue;
        }
        Event e = p.event().get();
        chunk
            .append(EmbeddedPostgres.csv(e.uid()))
            .append(',')
            .append(e.type().id())
            .append(',')
            .append(e.instant().toString())
            .append(',')
            .append(EmbeddedPostgres.csv(Json.write(e.fields())))
            .append('\n');
        rows++;
        if (chunk.length() > (1 << 20)) {
          copy.copyIn(
              "COPY events FROM STDIN WITH (FORMAT csv)", new StringReader(chunk.toString()));
          chunk.setLength(0);
        }
      }
    }
    if (chunk.length() > 0) {
      copy.copyIn("COPY events FROM STDIN WITH (FORMAT csv)", new StringReader(chunk.toString()));
    }
    return rows;
  }

  private static String ratios(
      BenchTable table, RawBenchmark.Figures raw, Map<String, Object> json) {
    Map<String, BenchTable.Row> rows = new LinkedHashMap<>();
    table.rows().forEach(r -> rows.put(r.step(), r));
    StringBuilder sb = new StringBuilder("comparisons:\n");
    Map<String, Object> r = new LinkedHashMap<>();
    BenchTable.Row ingest = rows.get("HBase ingest (events + tall + wide)");
    if (raw != null && ingest != null) {
      double ratio = ingest.rate() / raw.writeCellsPerSecond();
      sb.append(
          String.format(
              Locale.ROOT,
              "  ingest %,.0f cells/s = %.2fx the raw BufferedMutator rate (%,.0f cells/s); target >= 0.8x%n",
              ingest.rate(),
              ratio,
              raw.writeCellsPerSecond()));
      r.put("ingestVsRawWrite", ratio);
    }
    pair(sb, r, rows, "trail, Gets", "p99", 99);
    pair(sb, r, rows, "trail, Scan", "p99", 99);
    pair(sb, r, rows, "100 users'", "p50", 50);
    pair(sb, r, rows, "latest 20", "p99", 99);
    BenchTable.Row hbTask = rows.get("HBase: 000 task, direct");
    BenchTable.Row pgTask = rows.get("PostgreSQL: 000 task (GROUP BY + fetch)");
    if (hbTask != null && pgTask != null) {
      sb.append(
          String.format(
              Locale.ROOT,
              "  000 task: HBase %.2f s, PostgreSQL %.2f s (HBase/PostgreSQL %.2fx)%n",
              hbTask.seconds(),
              pgTask.seconds(),
              hbTask.seconds() / pgTask.seconds()));
      r.put("task000HBaseVsPostgresSeconds", List.of(hbTask.seconds(), pgTask.seconds()));
    }
    BenchTable.Row pgLoad = rows.get("PostgreSQL: load + index");
    if (ingest != null && pgLoad != null) {
      sb.append(
          String.format(
              Locale.ROOT,
              "  loading: HBase %.1f s (3 tables), PostgreSQL %.1f s (COPY + indexes)%n",
              ingest.seconds(),
              pgLoad.seconds()));
    }
    json.put("comparisons", r);
    return sb.toString();
  }

  private static void pair(
      StringBuilder sb,
      Map<String, Object> r,
      Map<String, BenchTable.Row> rows,
      String what,
      String label,
      double pct) {
    BenchTable.Row hb = null;
    BenchTable.Row pg = null;
    String pgWhat = what.startsWith("trail,") ? "-day trail" : what;
    for (BenchTable.Row row : rows.values()) {
      if (row.latency() == null) {
        continue;
      }
      if (row.step().contains(what)
          && hb == null
          && (row.step().startsWith("HBase:") || row.step().startsWith("HBase 004 wide"))) {
        hb = row;
      } else if (row.step().startsWith("PostgreSQL") && row.step().contains(pgWhat)) {
        pg = row;
      }
    }
    if (hb != null && pg != null) {
      double h = hb.latency().millis(pct);
      double p = pg.latency().millis(pct);
      sb.append(
          String.format(
              Locale.ROOT,
              "  %s: HBase %s %.2f ms, PostgreSQL %.2f ms (HBase/PostgreSQL %.2fx)%n",
              hb.step().replaceFirst("^HBase[^:]*: ", ""),
              label,
              h,
              p,
              h / p));
      r.put(what + " " + label, List.of(h, p));
    }
  }

  /** Timed runs of the seed-000 task on each side (after one untimed run). */
  private static final int TASK_RUNS = 5;

  private static double median(List<Double> values) {
    List<Double> sorted = new ArrayList<>(values);
    sorted.sort(null);
    return sorted.get(sorted.size() / 2);
  }

  private static String runs(List<Double> seconds) {
    return seconds.size()
        + " runs ("
        + String.join(
            ", ", seconds.stream().map(v -> String.format(Locale.ROOT, "%.3f", v)).toList())
        + " s)";
  }
}
