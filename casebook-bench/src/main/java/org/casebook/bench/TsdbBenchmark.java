package org.casebook.bench;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.casebook.core.InvalidInputException;
import org.casebook.core.Json;
import org.casebook.core.SystemContext;
import org.casebook.core.schema.SchemaManager;
import org.casebook.server.Session;
import org.casebook.tsdb.TsdbService;
import org.casebook.tsdb.TsdbSystem;
import org.casebook.tsdb.gen.TsdbGenerator;
import picocli.CommandLine.Option;

/**
 * {@code bench tsdb}: Casebook's time-series store and OpenTSDB 2.4.1 on the same embedded HBase,
 * in one run, over their wire protocols: ingest over telnet (1 and 4 connections) and HTTP (batches
 * of 50, 4 clients), a query of one series over a day, a group-by over 100 series, and bytes per
 * point on disk after compaction; the raw HBase ceiling first; then a long range queried with and
 * without Casebook's rollups ({@link TsdbLongRange}) and Grafana's {@code tag_values} lookup
 * ({@link TsdbTagValues}). Casebook runs as {@code serve} runs it ({@link Session#serve}), with its
 * tables in a namespace of the benchmark's own; OpenTSDB as a child JVM ({@link OpenTsdbPeer}).
 */
final class TsdbBenchmark {
  static final String NAMESPACE = "casebook_bench_tsdb";
  static final String OPENTSDB_PREFIX = "casebook_bench_otsdb:";

  /** Sizes; the defaults finish in a few minutes on a 2-core machine. */
  static final class Options {
    @Option(
        paramLabel = "N",
        names = "--telnet-points",
        defaultValue = "200000",
        description = "Points sent over telnet per phase (default ${DEFAULT-VALUE}).")
    int telnetPoints;

    @Option(
        paramLabel = "N",
        names = "--rounds",
        defaultValue = "3",
        description =
            "Rounds of each ingest phase per system, alternating; the median is reported"
                + " (default ${DEFAULT-VALUE}).")
    int rounds;

    @Option(
        paramLabel = "N",
        names = "--hosts",
        defaultValue = "100",
        description = "Series of the HTTP/query data set: hosts (default ${DEFAULT-VALUE}).")
    int hosts;

    @Option(
        paramLabel = "SECONDS",
        names = "--interval",
        defaultValue = "30",
        description = "Seconds between points of the query data set (default ${DEFAULT-VALUE}).")
    int interval;

    @Option(
        paramLabel = "N",
        names = "--queries",
        defaultValue = "200",
        description = "Timed runs of each query per system (default ${DEFAULT-VALUE}).")
    int queries;

    @Option(
        paramLabel = "N",
        names = "--raw-rows",
        defaultValue = "100000",
        description = "Rows of the raw ceiling; 0 skips it (default ${DEFAULT-VALUE}).")
    int rawRows;

    @Option(
        paramLabel = "SIZE",
        names = "--opentsdb-heap",
        defaultValue = "768m",
        description = "Heap of the OpenTSDB JVM (default ${DEFAULT-VALUE}).")
    String openTsdbHeap;

    @Option(
        paramLabel = "DAYS",
        names = "--long-days",
        defaultValue = "30",
        description =
            "Days of the long-range data set, queried whole with and without rollups; 0 skips"
                + " the step (default ${DEFAULT-VALUE}).")
    int longDays;

    @Option(
        paramLabel = "SECONDS",
        names = "--long-interval-seconds",
        defaultValue = "60",
        description =
            "Seconds between points of the long-range data set (default ${DEFAULT-VALUE}).")
    int longIntervalSeconds;

    @Option(
        paramLabel = "N",
        names = "--long-series",
        defaultValue = "100",
        description = "Series (hosts) of the long-range data set (default ${DEFAULT-VALUE}).")
    int longSeries;

    @Option(
        paramLabel = "N",
        names = "--long-queries",
        defaultValue = "30",
        description =
            "Timed runs of each long-range query, after 5 warm-ups (default ${DEFAULT-VALUE}).")
    int longQueries;

    @Option(
        paramLabel = "N",
        names = "--tag-values",
        defaultValue = "1000",
        description =
            "Values of the tag key the tag_values lookup lists; 0 skips the step"
                + " (default ${DEFAULT-VALUE}).")
    int tagValues;

    @Option(
        paramLabel = "DAYS",
        names = "--tag-history-days",
        defaultValue = "30",
        description =
            "Days of history of the tag_values metric, a point per series and hour"
                + " (default ${DEFAULT-VALUE}).")
    int tagHistoryDays;

    @Option(
        paramLabel = "N",
        names = "--lookup-queries",
        defaultValue = "200",
        description =
            "Timed runs of the tag_values lookup per system, after 20 warm-ups"
                + " (default ${DEFAULT-VALUE}).")
    int lookupQueries;

    @Option(names = "--keep", description = "Keep both systems' tables afterwards.")
    boolean keep;

    void validate() {
      InvalidInputException.check(
          telnetPoints >= 1000, "telnet-points", "--telnet-points must be at least 1000");
      InvalidInputException.check(hosts >= 2 && hosts <= 10_000, "hosts", "--hosts: 2..10000");
      InvalidInputException.check(rounds >= 1 && rounds <= 9, "rounds", "--rounds: 1..9");
      InvalidInputException.check(
          interval >= 1 && interval <= 3600, "interval", "--interval: 1..3600 seconds");
      InvalidInputException.check(queries >= 10, "queries", "--queries must be at least 10");
      InvalidInputException.check(
          rawRows == 0 || rawRows >= 1000, "raw-rows", "--raw-rows must be 0 or at least 1000");
      InvalidInputException.check(
          longDays >= 0 && longDays <= 366, "long-days", "--long-days: 0..366");
      InvalidInputException.check(
          longIntervalSeconds >= 1 && longIntervalSeconds <= 3600,
          "long-interval-seconds",
          "--long-interval-seconds: 1..3600");
      InvalidInputException.check(
          longSeries >= 1 && longSeries <= 10_000, "long-series", "--long-series: 1..10000");
      InvalidInputException.check(
          longQueries >= 5, "long-queries", "--long-queries must be at least 5");
      InvalidInputException.check(
          tagValues == 0 || (tagValues >= 2 && tagValues <= 100_000),
          "tag-values",
          "--tag-values: 0 or 2..100000");
      InvalidInputException.check(
          tagHistoryDays >= 1 && tagHistoryDays <= 366,
          "tag-history-days",
          "--tag-history-days: 1..366");
      InvalidInputException.check(
          lookupQueries >= 10, "lookup-queries", "--lookup-queries must be at least 10");
    }

    Map<String, Object> toJson() {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("telnetPoints", telnetPoints);
      m.put("hosts", hosts);
      m.put("rounds", rounds);
      m.put("interval", interval);
      m.put("queries", queries);
      m.put("rawRows", rawRows);
      m.put("openTsdbHeap", openTsdbHeap);
      m.put("longDays", longDays);
      m.put("longIntervalSeconds", longIntervalSeconds);
      m.put("longSeries", longSeries);
      m.put("longQueries", longQueries);
      m.put("tagValues", tagValues);
      m.put("tagHistoryDays", tagHistoryDays);
      m.put("lookupQueries", lookupQueries);
      return m;
    }
  }

  /** HTTP server threads of the served system, as the benchmark's private server had. */
  private static final int HTTP_THREADS = 4;

  private final Session session;
  private final SystemContext context;
  private final Connection connection;
  private final Options o;

  /** The start of the data: 26 hours ago on the hour, so every hour is finished. */
  private final long dayStart = (System.currentTimeMillis() / 3_600_000L - 26) * 3600L;

  TsdbBenchmark(Session session, Options options) {
    this.session = session;
    this.context = session.context("bench");
    this.connection = context.connection();
    this.o = options;
    options.validate();
  }

  /**
   * Casebook's tables in a namespace of the benchmark's own, and no compaction in the background:
   * finished hours are compacted in one timed step before the queries, on both sides.
   */
  private static Map<String, String> casebookSettings() {
    return Map.of("tsdb.namespace", NAMESPACE, "tsdb.enable-compaction", "false");
  }

  Map<String, Object> run() throws Exception {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("options", o.toJson());
    if (o.rawRows > 0) {
      RawBenchmark.Figures raw = RawBenchmark.ceiling(connection, o.rawRows);
      System.out.print(raw.table().render());
      json.put("raw", raw.table().toJson());
    }
    SchemaManager schemas = new SchemaManager(connection);
    // From empty tables: the session creates them again when it serves the system.
    schemas.dropNamespace(NAMESPACE);
    Path work = context.dataDir().resolve("tmp").resolve("bench-opentsdb");
    OpenTsdbOptions peerOptions =
        OpenTsdbOptions.defaults(work)
            .withTablePrefix(OPENTSDB_PREFIX)
            .withHeap(o.openTsdbHeap)
            .withDropExistingTables(true)
            // OpenTSDB spreads compactions over an hour by default; the benchmark wants its
            // finished hours compacted before it queries and measures bytes per point.
            .withConfig("tsd.storage.compaction.flush_interval", "2")
            .withConfig("tsd.storage.compaction.min_flush_threshold", "1")
            .withConfig("tsd.storage.compaction.flush_speed", "1000");
    Map<String, Map<String, Object>> figures = new LinkedHashMap<>();
    figures.put("casebook", new LinkedHashMap<>());
    figures.put("opentsdb", new LinkedHashMap<>());
    TsdbStorageFigures storage = new TsdbStorageFigures(connection, context.configuration());
    List<Consumer<String>> laterSteps = new ArrayList<>();
    try (Session.Served served =
        session.serve(List.of(session.system("tsdb")), HTTP_THREADS, casebookSettings())) {
      TsdbClient casebook =
          new TsdbClient(
              "casebook",
              served.listener("tsdb", TsdbSystem.TELNET.name()),
              "http://127.0.0.1:" + served.port());
      Map<String, String> queries = queries();
      Map<String, Object> answers = new LinkedHashMap<>();
      try (OpenTsdbPeer peer = OpenTsdbPeer.start(session.runtime(), peerOptions)) {
        List<TsdbClient> targets = List.of(casebook, openTsdbClient(peer));
        ingest(figures, targets);
        compact(figures, storage, "", 2);
        for (Map.Entry<String, String> q : queries.entrySet()) {
          answers.put(q.getKey(), timeQuery(figures, targets, q.getKey(), q.getValue()));
        }
        json.put("sameAnswers", answers);
        bytesPerPoint(figures, storage);
        if (o.longDays > 0) {
          laterSteps.add(longRange(json, figures, storage, casebook, targets.get(1)));
        }
      }
      if (o.tagValues > 0) {
        laterSteps.add(
            tagValues(json, figures, casebook, work.resolveSibling("bench-opentsdb-lookup")));
      }
      TsdbBenchReport.print(figures, queries.keySet(), answers, laterSteps);
    } finally {
      if (!o.keep) {
        schemas.dropNamespace(NAMESPACE);
        for (String t : List.of("tsdb", "tsdb-uid", "tsdb-tree", "tsdb-meta")) {
          schemas.drop(TableName.valueOf(OPENTSDB_PREFIX + t));
        }
      }
    }
    Map<String, Object> out = new LinkedHashMap<>();
    figures.forEach(
        (k, v) -> {
          Map<String, Object> copy = new LinkedHashMap<>(v);
          copy.entrySet().removeIf(e -> e.getValue() instanceof Latency);
          out.put(k, copy);
        });
    json.put("results", out);
    return json;
  }

  /**
   * The long-range step ({@link TsdbLongRange}): its data set written to both sides, both
   * compacted, the three ways of asking timed. Returns the printer of its table rows.
   */
  private Consumer<String> longRange(
      Map<String, Object> json,
      Map<String, Map<String, Object>> figures,
      TsdbStorageFigures storage,
      TsdbClient casebook,
      TsdbClient opentsdb)
      throws Exception {
    TsdbLongRange step = new TsdbLongRange(o, System.currentTimeMillis() / 1000);
    for (TsdbClient t : List.of(casebook, opentsdb)) {
      figures.get(t.name()).put("long range ingest", step.write(t));
    }
    // The long-range set is many more rows for OpenTSDB's queue than the ingest steps'.
    compact(figures, storage, "long range ", 15);
    TsdbLongRange.Result r = step.time(casebook, opentsdb, figures);
    json.put("longRange", r.toJson(step));
    return fmt -> r.print(fmt, o);
  }

  /**
   * The tag_values step ({@link TsdbTagValues}) with a TSD of its own on the same tables: OpenTSDB
   * answers lookups from its meta table, which only meta tracking fills, and tracking adds a put
   * per point, so it is on only in this TSD, started after the steps before. Returns the printer of
   * its table rows.
   */
  private Consumer<String> tagValues(
      Map<String, Object> json,
      Map<String, Map<String, Object>> figures,
      TsdbClient casebook,
      Path work)
      throws Exception {
    try (OpenTsdbPeer peer = OpenTsdbPeer.start(session.runtime(), lookupPeerOptions(work))) {
      TsdbTagValues step = new TsdbTagValues(o, System.currentTimeMillis() / 1000);
      List<TsdbClient> targets = List.of(casebook, openTsdbClient(peer));
      for (TsdbClient t : targets) {
        figures.get(t.name()).put("tag_values ingest", step.write(t));
      }
      for (TsdbClient t : targets) {
        step.awaitListed(t);
      }
      TsdbTagValues.Result r = step.time(targets, figures);
      json.put("tagValues", r.toJson(step));
      return fmt -> r.print(fmt, o);
    }
  }

  private TsdbIngest ingestOf() {
    return new TsdbIngest(o, dayStart);
  }

  private static TsdbClient openTsdbClient(OpenTsdbPeer peer) {
    return new TsdbClient(
        "opentsdb",
        new InetSocketAddress(InetAddress.getLoopbackAddress(), peer.telnetPort()),
        peer.baseUri().toString().replaceAll("/$", ""));
  }

  /**
   * The TSD of the tag_values step, on the same tables: series tracked in its meta table ({@code
   * tsd.core.meta.enable_tsuid_tracking}, the cheapest setting that fills it: one put per point, no
   * TSMeta object), and no compaction queue, so that neither side compacts while lookups are timed
   * (Casebook is served without background compaction).
   */
  private OpenTsdbOptions lookupPeerOptions(Path work) {
    return OpenTsdbOptions.defaults(work)
        .withTablePrefix(OPENTSDB_PREFIX)
        .withHeap(o.openTsdbHeap)
        .withConfig("tsd.core.meta.enable_tsuid_tracking", "true")
        .withConfig("tsd.storage.enable_compaction", "false");
  }

  /** Bytes per point of the ingest steps' data, after compaction and major compaction. */
  private void bytesPerPoint(Map<String, Map<String, Object>> figures, TsdbStorageFigures storage)
      throws Exception {
    long httpPoints = ingestOf().httpPoints();
    long points = (long) o.rounds * (2L * o.telnetPoints + httpPoints) + httpPoints;
    long casebookBytes = storage.storedBytes(TableName.valueOf(NAMESPACE, "data"));
    long opentsdbBytes = storage.storedBytes(TableName.valueOf(OPENTSDB_PREFIX + "tsdb"));
    figures.get("casebook").put("dataBytes", casebookBytes);
    figures.get("casebook").put("points", points);
    figures.get("casebook").put("bytesPerPoint", (double) casebookBytes / points);
    figures.get("opentsdb").put("dataBytes", opentsdbBytes);
    figures.get("opentsdb").put("points", points);
    figures.get("opentsdb").put("bytesPerPoint", (double) opentsdbBytes / points);
  }

  /**
   * Ingest: each phase alternates between the systems, o.rounds times, each round into new metrics;
   * the median round is reported (the two share the machine's two cores, and a slow moment should
   * not decide a ratio).
   */
  private void ingest(Map<String, Map<String, Object>> figures, List<TsdbClient> targets)
      throws Exception {
    TsdbIngest ingest = ingestOf();
    for (int round = 1; round <= o.rounds; round++) {
      for (TsdbClient t : targets) {
        TsdbBenchReport.addRound(
            figures, t, "telnet1", ingest.telnet(t, "bench.r" + round + ".t1.", 1));
      }
      for (TsdbClient t : targets) {
        TsdbBenchReport.addRound(
            figures, t, "telnet4", ingest.telnet(t, "bench.r" + round + ".t4.", 4));
      }
      for (TsdbClient t : targets) {
        // The first round's HTTP data set is the one the queries read.
        TsdbBenchReport.addRound(
            figures,
            t,
            "http",
            ingest.http(t, "", round == 1 ? "bench.q." : "bench.r" + round + ".h."));
      }
    }
    for (TsdbClient t : targets) {
      TsdbBenchReport.addRound(figures, t, "httpSync", ingest.http(t, "?sync", "bench.qs."));
    }
    for (TsdbClient t : targets) {
      for (String phase : List.of("telnet1", "telnet4", "http", "httpSync")) {
        figures
            .get(t.name())
            .put(phase, TsdbBenchReport.median(figures.get(t.name()).get(phase + " rounds")));
      }
    }
  }

  /**
   * Finished hours compacted on both sides before the queries, as in steady state: Casebook's as
   * {@code tsdb compact} does it (its public API on the context it is served on), OpenTSDB's by its
   * own queue; then HBase's major compaction drops what the row rewrites deleted, on both data
   * tables, and on Casebook's rollup table.
   */
  private void compact(
      Map<String, Map<String, Object>> figures,
      TsdbStorageFigures storage,
      String keyPrefix,
      int openTsdbMinutes)
      throws Exception {
    System.out.println(
        "compacting both sides' finished hours"
            + (keyPrefix.isEmpty() ? "" : " (" + keyPrefix.trim() + ")"));
    try (TsdbService tsdb = new TsdbService(session.context(session.system("tsdb")))) {
      long c0 = System.nanoTime();
      int compactedRows = tsdb.compactAll();
      figures.get("casebook").put(keyPrefix + "compactionSeconds", (System.nanoTime() - c0) / 1e9);
      figures.get("casebook").put(keyPrefix + "compactedRows", compactedRows);
    }
    long c0 = System.nanoTime();
    storage.awaitOpenTsdbCompaction(TableName.valueOf(OPENTSDB_PREFIX + "tsdb"), openTsdbMinutes);
    figures.get("opentsdb").put(keyPrefix + "compactionSeconds", (System.nanoTime() - c0) / 1e9);
    figures
        .get("casebook")
        .put(
            keyPrefix + "majorCompactionSeconds",
            storage.majorCompact(TableName.valueOf(NAMESPACE, "data")));
    figures
        .get("opentsdb")
        .put(
            keyPrefix + "majorCompactionSeconds",
            storage.majorCompact(TableName.valueOf(OPENTSDB_PREFIX + "tsdb")));
    // Casebook's rollups of old days are in store files in steady state, as its points are.
    figures
        .get("casebook")
        .put(
            keyPrefix + "rollupMajorCompactionSeconds",
            storage.majorCompact(TableName.valueOf(NAMESPACE, "rollup")));
  }

  /** The timed queries, by name: the same questions to both systems. */
  private Map<String, String> queries() {
    Map<String, String> queries = new LinkedHashMap<>();
    long lastHour = dayStart + 23 * 3600;
    queries.put(
        "1 series x 1 day",
        "/api/query?start="
            + dayStart
            + "&end="
            + (dayStart + 86_399)
            + "&m="
            + TsdbClient.enc("sum:bench.q.cpu{host=" + TsdbGenerator.hostName(0) + "}"));
    queries.put(
        "group-by 100 series x 1 h, 1m-avg",
        "/api/query?start="
            + lastHour
            + "&end="
            + (lastHour + 3599)
            + "&m="
            + TsdbClient.enc("avg:1m-avg:bench.q.cpu{host=*}"));
    queries.put(
        "all series x 1 day, 1h-max, sum",
        "/api/query?start="
            + dayStart
            + "&end="
            + (dayStart + 86_399)
            + "&m="
            + TsdbClient.enc("sum:1h-max:bench.q.cpu"));
    return queries;
  }

  /**
   * {@code o.queries} timed runs of one query on each system after 20 warm-up runs: whether both
   * gave the same answer.
   */
  private boolean timeQuery(
      Map<String, Map<String, Object>> figures,
      List<TsdbClient> targets,
      String name,
      String pathAndQuery)
      throws Exception {
    JsonNode first = null;
    boolean same = true;
    for (TsdbClient t : targets) {
      Latency lat = new Latency();
      JsonNode answer = null;
      for (int i = 0; i < o.queries + 20; i++) {
        long s = System.nanoTime();
        HttpResponse<byte[]> r = t.get(pathAndQuery);
        if (i >= 20) {
          lat.recordNanos(System.nanoTime() - s);
        }
        if (r.statusCode() != 200) {
          throw new IllegalStateException(
              t.name()
                  + " answered "
                  + r.statusCode()
                  + ": "
                  + new String(r.body(), StandardCharsets.UTF_8));
        }
        answer = Json.mapper().readTree(r.body());
      }
      figures.get(t.name()).put("query " + name, lat.toJson());
      figures.get(t.name()).put("query " + name + " latency", lat);
      if (first == null) {
        first = answer;
      } else {
        same = TsdbAnswers.difference(answer, first) == null;
      }
    }
    return same;
  }
}
