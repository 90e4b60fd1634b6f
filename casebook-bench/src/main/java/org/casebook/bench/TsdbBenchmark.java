package org.casebook.bench;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
 * point on disk after compaction; the raw HBase ceiling first. Casebook runs as {@code serve} runs
 * it ({@link Session#serve}), with its tables in a namespace of the benchmark's own; OpenTSDB as a
 * child JVM ({@link OpenTsdbPeer}).
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
    TsdbStorageFigures storage = new TsdbStorageFigures(connection, context.configuration());
    try (Session.Served served =
            session.serve(List.of(session.system("tsdb")), HTTP_THREADS, casebookSettings());
        OpenTsdbPeer peer = OpenTsdbPeer.start(session.runtime(), peerOptions)) {
      List<TsdbClient> targets =
          List.of(
              new TsdbClient(
                  "casebook",
                  served.listener("tsdb", TsdbSystem.TELNET.name()),
                  "http://127.0.0.1:" + served.port()),
              new TsdbClient(
                  "opentsdb",
                  new InetSocketAddress(InetAddress.getLoopbackAddress(), peer.telnetPort()),
                  peer.baseUri().toString().replaceAll("/$", "")));
      for (TsdbClient t : targets) {
        figures.put(t.name(), new LinkedHashMap<>());
      }
      ingest(figures, targets);
      compact(figures, storage);
      Map<String, String> queries = queries();
      Map<String, Object> answers = new LinkedHashMap<>();
      for (Map.Entry<String, String> q : queries.entrySet()) {
        answers.put(q.getKey(), timeQuery(figures, targets, q.getKey(), q.getValue()));
      }
      json.put("sameAnswers", answers);
      // Bytes per point after compaction, then flush and major compaction.
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
      TsdbBenchReport.print(figures, queries.keySet(), answers);
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

  private TsdbIngest ingestOf() {
    return new TsdbIngest(o, dayStart);
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
   * own queue; then HBase's major compaction drops what the row rewrites deleted, on both tables.
   */
  private void compact(Map<String, Map<String, Object>> figures, TsdbStorageFigures storage)
      throws Exception {
    try (TsdbService tsdb = new TsdbService(session.context(session.system("tsdb")))) {
      long c0 = System.nanoTime();
      int compactedRows = tsdb.compactAll();
      figures.get("casebook").put("compactionSeconds", (System.nanoTime() - c0) / 1e9);
      figures.get("casebook").put("compactedRows", compactedRows);
    }
    long c0 = System.nanoTime();
    storage.awaitOpenTsdbCompaction(TableName.valueOf(OPENTSDB_PREFIX + "tsdb"));
    figures.get("opentsdb").put("compactionSeconds", (System.nanoTime() - c0) / 1e9);
    figures
        .get("casebook")
        .put("majorCompactionSeconds", storage.majorCompact(TableName.valueOf(NAMESPACE, "data")));
    figures
        .get("opentsdb")
        .put(
            "majorCompactionSeconds",
            storage.majorCompact(TableName.valueOf(OPENTSDB_PREFIX + "tsdb")));
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
