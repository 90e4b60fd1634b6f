package org.casebook.bench;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedOutputStream;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.CommonFSUtils;
import org.casebook.core.AccessRule;
import org.casebook.core.InvalidInputException;
import org.casebook.core.Json;
import org.casebook.core.SystemContext;
import org.casebook.core.Threads;
import org.casebook.core.cli.Progress;
import org.casebook.core.http.HttpApiServer;
import org.casebook.core.net.LineServer;
import org.casebook.core.net.Listener;
import org.casebook.core.net.ListenerSpec;
import org.casebook.core.schema.SchemaManager;
import org.casebook.core.schema.TableSpec;
import org.casebook.server.Session;
import org.casebook.tsdb.TsdbConfig;
import org.casebook.tsdb.TsdbService;
import org.casebook.tsdb.gen.TsdbGenerator;
import org.casebook.tsdb.http.TsdbRoutes;
import picocli.CommandLine.Option;

/**
 * {@code bench tsdb}: Casebook's time-series store and OpenTSDB 2.4.1 on the same embedded HBase,
 * in one run, over their wire protocols: ingest over telnet (1 and 4 connections) and HTTP (batches
 * of 50, 4 clients), a query of one series over a day, a group-by over 100 series, and bytes per
 * point on disk after compaction; the raw HBase ceiling first.
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

  /** A system under test: where its telnet and HTTP API are. */
  private record Target(String name, InetSocketAddress telnet, String http) {}

  private final SystemContext context;
  private final Connection connection;
  private final Options o;
  private final HttpClient client =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

  /** The start of the data: 26 hours ago on the hour, so every hour is finished. */
  private final long dayStart = (System.currentTimeMillis() / 3_600_000L - 26) * 3600L;

  private final Session session;

  TsdbBenchmark(Session session, Options options) {
    this.session = session;
    this.context = session.context("bench");
    this.connection = context.connection();
    this.o = options;
    options.validate();
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
    List<TableSpec> specs = TsdbService.schemas(NAMESPACE, 0);
    specs.forEach(s -> schemas.drop(s.name()));
    schemas.ensureAll(specs);
    Path work = context.dataDir().resolve("tmp").resolve("bench-opentsdb");
    OpenTsdbPeer.Options peerOptions =
        OpenTsdbPeer.Options.defaults(work)
            .withTablePrefix(OPENTSDB_PREFIX)
            .withHeap(o.openTsdbHeap)
            .withDropExistingTables(true)
            // OpenTSDB spreads compactions over an hour by default; the benchmark wants its
            // finished hours compacted before it queries and measures bytes per point.
            .withConfig("tsd.storage.compaction.flush_interval", "2")
            .withConfig("tsd.storage.compaction.min_flush_threshold", "1")
            .withConfig("tsd.storage.compaction.flush_speed", "1000");
    Map<String, Map<String, Object>> figures = new LinkedHashMap<>();
    try (TsdbService tsdb = new TsdbService(context, TsdbConfig.defaults(), NAMESPACE);
        Listener telnet =
            LineServer.factory(
                    tsdb.telnetProtocol(AccessRule.open()),
                    new LineServer.Limits(64, 600_000, 65_536))
                .open(
                    new ListenerSpec("telnet", "OpenTSDB telnet", 0, "bench"),
                    new InetSocketAddress("127.0.0.1", 0));
        HttpApiServer http =
            new HttpApiServer("127.0.0.1", 0, AccessRule.open(), 4, context.metrics());
        OpenTsdbPeer peer = OpenTsdbPeer.start(session.runtime(), peerOptions)) {
      TsdbRoutes.ROUTES.bind(tsdb).forEach(http::add);
      http.start();
      List<Target> targets =
          List.of(
              new Target("casebook", telnet.address(), "http://127.0.0.1:" + http.port()),
              new Target(
                  "opentsdb",
                  new InetSocketAddress("127.0.0.1", peer.telnetPort()),
                  peer.baseUri().toString().replaceAll("/$", "")));
      for (Target t : targets) {
        figures.put(t.name(), new LinkedHashMap<>());
      }
      // Ingest: each phase alternates between the systems, o.rounds times, each round into new
      // metrics; the median round is reported (the two share the machine's two cores, and a
      // slow moment should not decide a ratio).
      for (int round = 1; round <= o.rounds; round++) {
        for (Target t : targets) {
          addRound(figures, t, "telnet1", telnetIngest(t, "bench.r" + round + ".t1.", 1));
        }
        for (Target t : targets) {
          addRound(figures, t, "telnet4", telnetIngest(t, "bench.r" + round + ".t4.", 4));
        }
        for (Target t : targets) {
          // The first round's HTTP data set is the one the queries read.
          addRound(
              figures,
              t,
              "http",
              httpIngest(t, "", round == 1 ? "bench.q." : "bench.r" + round + ".h."));
        }
      }
      for (Target t : targets) {
        addRound(figures, t, "httpSync", httpIngest(t, "?sync", "bench.qs."));
      }
      for (Target t : targets) {
        for (String phase : List.of("telnet1", "telnet4", "http", "httpSync")) {
          figures.get(t.name()).put(phase, median(figures.get(t.name()).get(phase + " rounds")));
        }
      }
      // Finished hours compacted on both sides before the queries, as in steady state.
      long c0 = System.nanoTime();
      int compactedRows = tsdb.compactAll();
      figures.get("casebook").put("compactionSeconds", (System.nanoTime() - c0) / 1e9);
      figures.get("casebook").put("compactedRows", compactedRows);
      c0 = System.nanoTime();
      awaitOpenTsdbCompaction(TableName.valueOf(OPENTSDB_PREFIX + "tsdb"));
      figures.get("opentsdb").put("compactionSeconds", (System.nanoTime() - c0) / 1e9);
      // Then HBase's major compaction drops what the row rewrites deleted, on both tables.
      figures
          .get("casebook")
          .put("majorCompactionSeconds", majorCompact(TableName.valueOf(NAMESPACE, "data")));
      figures
          .get("opentsdb")
          .put("majorCompactionSeconds", majorCompact(TableName.valueOf(OPENTSDB_PREFIX + "tsdb")));
      // Queries, same questions to both, answers compared.
      Map<String, String> queries = new LinkedHashMap<>();
      long lastHour = dayStart + 23 * 3600;
      queries.put(
          "1 series x 1 day",
          "/api/query?start="
              + dayStart
              + "&end="
              + (dayStart + 86_399)
              + "&m="
              + enc("sum:bench.q.cpu{host=" + TsdbGenerator.hostName(0) + "}"));
      queries.put(
          "group-by 100 series x 1 h, 1m-avg",
          "/api/query?start="
              + lastHour
              + "&end="
              + (lastHour + 3599)
              + "&m="
              + enc("avg:1m-avg:bench.q.cpu{host=*}"));
      queries.put(
          "all series x 1 day, 1h-max, sum",
          "/api/query?start="
              + dayStart
              + "&end="
              + (dayStart + 86_399)
              + "&m="
              + enc("sum:1h-max:bench.q.cpu"));
      Map<String, Object> answers = new LinkedHashMap<>();
      for (Map.Entry<String, String> q : queries.entrySet()) {
        JsonNode first = null;
        boolean same = true;
        for (Target t : targets) {
          Latency lat = new Latency();
          JsonNode answer = null;
          for (int i = 0; i < o.queries + 20; i++) {
            long s = System.nanoTime();
            HttpResponse<byte[]> r = get(t.http() + q.getValue());
            if (i >= 20) {
              lat.recordNanos(System.nanoTime() - s);
            }
            if (r.statusCode() != 200) {
              throw new IllegalStateException(
                  t.name() + " answered " + r.statusCode() + ": " + new String(r.body(), UTF8));
            }
            answer = Json.mapper().readTree(r.body());
          }
          figures.get(t.name()).put("query " + q.getKey(), lat.toJson());
          figures.get(t.name()).put("query " + q.getKey() + " latency", lat);
          if (first == null) {
            first = answer;
          } else {
            same = difference(answer, first) == null;
          }
        }
        answers.put(q.getKey(), same);
      }
      json.put("sameAnswers", answers);
      // Bytes per point after compaction, then flush and major compaction.
      long points = (long) o.rounds * (2L * o.telnetPoints + httpPoints()) + httpPoints();
      long opentsdbPoints = points;
      long casebookBytes = storedBytes(TableName.valueOf(NAMESPACE, "data"));
      long opentsdbBytes = storedBytes(TableName.valueOf(OPENTSDB_PREFIX + "tsdb"));
      figures.get("casebook").put("dataBytes", casebookBytes);
      figures.get("casebook").put("points", points);
      figures.get("casebook").put("bytesPerPoint", (double) casebookBytes / points);
      figures.get("opentsdb").put("dataBytes", opentsdbBytes);
      figures.get("opentsdb").put("points", opentsdbPoints);
      figures.get("opentsdb").put("bytesPerPoint", (double) opentsdbBytes / opentsdbPoints);
      print(figures, queries.keySet(), answers);
    } finally {
      if (!o.keep) {
        specs.forEach(s -> schemas.drop(s.name()));
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

  private static final java.nio.charset.Charset UTF8 = StandardCharsets.UTF_8;

  private static void addRound(
      Map<String, Map<String, Object>> figures, Target t, String phase, Map<String, Object> round) {
    @SuppressWarnings("unchecked") // only this method puts these lists
    List<Map<String, Object>> rounds =
        (List<Map<String, Object>>)
            figures.get(t.name()).computeIfAbsent(phase + " rounds", k -> new ArrayList<>());
    rounds.add(round);
  }

  /** The round with the median rate (the lower middle one of an even count). */
  private static Map<String, Object> median(Object rounds) {
    @SuppressWarnings("unchecked") // built by addRound
    List<Map<String, Object>> list = new ArrayList<>((List<Map<String, Object>>) rounds);
    list.sort(java.util.Comparator.comparingDouble(m -> (double) m.get("pointsPerSecond")));
    Map<String, Object> median = new LinkedHashMap<>(list.get((list.size() - 1) / 2));
    median.put("rounds", list.size());
    median.put("minPointsPerSecond", list.get(0).get("pointsPerSecond"));
    median.put("maxPointsPerSecond", list.get(list.size() - 1).get("pointsPerSecond"));
    return median;
  }

  /** Telnet ingest: the generated lines, metric names prefixed, over {@code connections}. */
  private Map<String, Object> telnetIngest(Target t, String prefix, int connections)
      throws Exception {
    int hosts = 50;
    int metrics = 8;
    int intervals = Math.max(1, o.telnetPoints / (hosts * metrics));
    TsdbGenerator.Spec spec =
        new TsdbGenerator.Spec(hosts, metrics, 10, dayStart, intervals, 0, 0, 7);
    List<List<String>> perConnection = new ArrayList<>();
    for (int c = 0; c < connections; c++) {
      perConnection.add(new ArrayList<>());
    }
    int n = 0;
    for (Iterator<String> it = TsdbGenerator.lines(spec); it.hasNext(); n++) {
      perConnection.get(n % connections).add("put " + prefix + it.next() + "\n");
    }
    ExecutorService pool = Executors.newFixedThreadPool(connections, Threads.daemon("telnet"));
    long start = System.nanoTime();
    List<Future<Integer>> errors = new ArrayList<>();
    for (List<String> lines : perConnection) {
      errors.add(pool.submit(() -> sendLines(t.telnet(), lines)));
    }
    int errorLines = 0;
    for (Future<Integer> f : errors) {
      errorLines += f.get();
    }
    double accepted = (System.nanoTime() - start) / 1e9;
    pool.shutdown();
    awaitVisible(t, prefix, spec.metrics(), n);
    double seconds = (System.nanoTime() - start) / 1e9;
    System.out.printf(
        Locale.ROOT,
        "%s telnet x%d: %,d points taken in %.2f s, all readable after %.2f s = %,.0f points/s%n",
        t.name(),
        connections,
        n,
        accepted,
        seconds,
        n / seconds);
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("points", n);
    m.put("acceptedSeconds", accepted);
    m.put("seconds", seconds);
    m.put("pointsPerSecond", n / seconds);
    m.put("errorLines", errorLines);
    return m;
  }

  /**
   * Waits until every point sent is readable: the sum over series of each series' point count
   * ({@code sum:0all-count}) over all metrics of the phase reaches {@code points}.
   */
  private void awaitVisible(Target t, String prefix, int metrics, long points) throws Exception {
    long deadline = System.nanoTime() + 300_000_000_000L;
    List<String> names = TsdbGenerator.metricNames(metrics);
    while (System.nanoTime() < deadline) {
      long seen = 0;
      for (String name : names) {
        HttpResponse<byte[]> r =
            get(
                t.http()
                    + "/api/query?start="
                    + dayStart
                    + "&end="
                    + (dayStart + 3 * 86_400)
                    + "&m="
                    + enc("sum:0all-count:" + prefix + name));
        if (r.statusCode() == 200) {
          for (JsonNode g : Json.mapper().readTree(r.body())) {
            for (JsonNode v : g.get("dps")) {
              seen += v.asLong();
            }
          }
        }
      }
      if (seen >= points) {
        return;
      }
      Thread.sleep(100);
    }
    throw new IllegalStateException(t.name() + ": points not all readable after 5 minutes");
  }

  /**
   * Sends the lines, then {@code version}, and waits for its answer: the server has then taken
   * every line before it (a put has no reply). Returns the error lines seen.
   */
  private static int sendLines(InetSocketAddress address, List<String> lines) throws IOException {
    try (Socket s = new Socket()) {
      s.connect(address, 10_000);
      s.setSoTimeout(600_000);
      BufferedReader in =
          new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
      int[] errors = {0};
      Thread reader =
          Threads.daemon("telnet-replies")
              .newThread(
                  () -> {
                    try {
                      String line;
                      while ((line = in.readLine()) != null) {
                        if (line.startsWith("Built")) {
                          return;
                        }
                        if (line.startsWith("put:") || line.startsWith("unknown")) {
                          errors[0]++;
                        }
                      }
                    } catch (IOException e) {
                      throw new UncheckedIOException(e);
                    }
                  });
      reader.start();
      OutputStream out = new BufferedOutputStream(s.getOutputStream(), 1 << 16);
      for (String line : lines) {
        out.write(line.getBytes(StandardCharsets.UTF_8));
      }
      out.write("version\n".getBytes(StandardCharsets.UTF_8));
      out.flush();
      reader.join(600_000);
      return errors[0];
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
  }

  private long httpPoints() {
    return (long) o.hosts * (86_400 / o.interval);
  }

  /** HTTP ingest of the query data set: {@code hosts} series over a day, batches of 50. */
  private Map<String, Object> httpIngest(Target t, String params, String prefix) throws Exception {
    int perSeries = 86_400 / o.interval;
    List<String> bodies = new ArrayList<>();
    StringBuilder batch = new StringBuilder();
    int inBatch = 0;
    java.util.SplittableRandom r = new java.util.SplittableRandom(11);
    for (int i = 0; i < perSeries; i++) {
      for (int h = 0; h < o.hosts; h++) {
        batch
            .append(inBatch == 0 ? "[" : ",")
            .append("{\"metric\":\"")
            .append(prefix)
            .append("cpu\",\"timestamp\":")
            .append(dayStart + (long) i * o.interval)
            .append(",\"value\":")
            .append(String.format(Locale.ROOT, "%.2f", 100 * r.nextDouble()))
            .append(",\"tags\":{\"host\":\"")
            .append(TsdbGenerator.hostName(h))
            .append("\",\"dc\":\"lga\"}}");
        if (++inBatch == 50) {
          bodies.add(batch.append(']').toString());
          batch.setLength(0);
          inBatch = 0;
        }
      }
    }
    if (inBatch > 0) {
      bodies.add(batch.append(']').toString());
    }
    ExecutorService pool = Executors.newFixedThreadPool(4, Threads.daemon("http-put"));
    Latency lat = new Latency();
    long start = System.nanoTime();
    List<Future<Latency>> futures = new ArrayList<>();
    try (Progress p = Progress.start(t.name() + " http put" + params, bodies.size(), "batches")) {
      for (int c = 0; c < 4; c++) {
        int client = c;
        futures.add(
            pool.submit(
                () -> {
                  Latency mine = new Latency();
                  for (int b = client; b < bodies.size(); b += 4) {
                    long s = System.nanoTime();
                    HttpResponse<byte[]> resp = post(t.http() + "/api/put" + params, bodies.get(b));
                    mine.recordNanos(System.nanoTime() - s);
                    if (resp.statusCode() != 204) {
                      throw new IllegalStateException(
                          t.name()
                              + " put: "
                              + resp.statusCode()
                              + " "
                              + new String(resp.body(), UTF8));
                    }
                    p.advance(1);
                  }
                  return mine;
                }));
      }
      for (Future<Latency> f : futures) {
        lat.add(f.get());
      }
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    pool.shutdown();
    long points = (long) perSeries * o.hosts;
    System.out.printf(
        Locale.ROOT,
        "%s http%s: %,d points in %.2f s = %,.0f points/s%n",
        t.name(),
        params,
        points,
        seconds,
        points / seconds);
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("points", points);
    m.put("seconds", seconds);
    m.put("pointsPerSecond", points / seconds);
    m.put("sync", params.contains("sync"));
    m.put("batchLatency", lat.toJson());
    return m;
  }

  /**
   * Waits until OpenTSDB has compacted the finished hours it wrote: every row of its data table is
   * one cell (its compaction queue works every few seconds), at most two minutes.
   */
  private void awaitOpenTsdbCompaction(TableName table) throws Exception {
    long deadline = System.nanoTime() + 120_000_000_000L;
    long rows = 0;
    long cells = 0;
    long previousExtra = -1;
    while (System.nanoTime() < deadline) {
      rows = 0;
      cells = 0;
      try (Table t = connection.getTable(table);
          ResultScanner s =
              t.getScanner(
                  new Scan()
                      .setFilter(new org.apache.hadoop.hbase.filter.KeyOnlyFilter())
                      .setCaching(1000))) {
        for (Result r : s) {
          rows++;
          cells += r.size();
        }
      }
      // Done when every row is one cell, or the few left stop changing (a handful of rows
      // OpenTSDB does not requeue: they are reported below and counted as they are).
      if (rows > 0 && (cells == rows || cells - rows == previousExtra)) {
        if (cells != rows) {
          System.out.printf(
              Locale.ROOT, "OpenTSDB left %,d cells in %,d rows uncompacted%n", cells - rows, rows);
        }
        return;
      }
      previousExtra = cells - rows;
      Thread.sleep(3000);
    }
    System.out.printf(
        Locale.ROOT,
        "OpenTSDB left %,d cells in %,d rows uncompacted after 2 minutes%n",
        cells - rows,
        rows);
  }

  /**
   * Flushes a table and major-compacts it, waiting until HBase reports it done: no compaction
   * running, one store file per region, and a newer last major compaction time.
   */
  private double majorCompact(TableName table) throws Exception {
    long started = System.nanoTime();
    try (Admin admin = connection.getAdmin()) {
      admin.flush(table);
      long before = admin.getLastMajorCompactionTimestamp(table);
      admin.majorCompact(table);
      long deadline = System.nanoTime() + 600_000_000_000L;
      while (System.nanoTime() < deadline) {
        Thread.sleep(500);
        int regions = 0;
        int files = 0;
        for (org.apache.hadoop.hbase.ServerName server : admin.getRegionServers()) {
          for (org.apache.hadoop.hbase.RegionMetrics r : admin.getRegionMetrics(server, table)) {
            regions++;
            files += r.getStoreFileCount();
          }
        }
        if (admin.getCompactionState(table) == org.apache.hadoop.hbase.client.CompactionState.NONE
            && files <= regions
            && admin.getLastMajorCompactionTimestamp(table) > before) {
          break;
        }
      }
    }
    return (System.nanoTime() - started) / 1e9;
  }

  /** The bytes of a table's HFiles (after {@link #majorCompact}). */
  private long storedBytes(TableName table) throws Exception {
    org.apache.hadoop.conf.Configuration conf = context.configuration();
    org.apache.hadoop.fs.Path root = CommonFSUtils.getRootDir(conf);
    FileSystem fs = root.getFileSystem(conf);
    org.apache.hadoop.fs.Path dir = CommonFSUtils.getTableDir(root, table);
    // After a major compaction each store (region/family directory) has one live file, the
    // newest; the files it replaced stay beside it until HBase's discharger archives them
    // (every two minutes), so only the newest file of each store is counted.
    Map<String, org.apache.hadoop.fs.LocatedFileStatus> newest = new LinkedHashMap<>();
    org.apache.hadoop.fs.RemoteIterator<org.apache.hadoop.fs.LocatedFileStatus> files =
        fs.listFiles(dir, true);
    while (files.hasNext()) {
      org.apache.hadoop.fs.LocatedFileStatus f = files.next();
      String p = f.getPath().toString();
      // Store files only: not region info, recovered edits or temporary files.
      if (p.contains("/.")
          || p.contains("/recovered.edits/")
          || f.getPath().getName().startsWith(".")) {
        continue;
      }
      String store = f.getPath().getParent().toString();
      org.apache.hadoop.fs.LocatedFileStatus seen = newest.get(store);
      if (seen == null || f.getModificationTime() > seen.getModificationTime()) {
        newest.put(store, f);
      }
    }
    long bytes = 0;
    for (org.apache.hadoop.fs.LocatedFileStatus f : newest.values()) {
      bytes += f.getLen();
    }
    return bytes;
  }

  /** Null when the answers match, else what differs first. */
  static String difference(JsonNode ours, JsonNode theirs) {
    if (ours.size() != theirs.size()) {
      return ours.size() + " groups vs OpenTSDB's " + theirs.size();
    }
    for (int i = 0; i < ours.size(); i++) {
      JsonNode a = ours.get(i);
      JsonNode b = theirs.get(i);
      if (!a.get("tags").equals(b.get("tags"))) {
        return "group " + i + " tags " + a.get("tags") + " vs " + b.get("tags");
      }
      if (!sortedTexts(a.get("aggregateTags")).equals(sortedTexts(b.get("aggregateTags")))) {
        return "group "
            + i
            + " aggregateTags "
            + a.get("aggregateTags")
            + " vs "
            + b.get("aggregateTags");
      }
      Map<String, JsonNode> x = fields(a.get("dps"));
      Map<String, JsonNode> y = fields(b.get("dps"));
      if (!x.keySet().equals(y.keySet())) {
        List<String> onlyOurs = new ArrayList<>(x.keySet());
        onlyOurs.removeAll(y.keySet());
        List<String> onlyTheirs = new ArrayList<>(y.keySet());
        onlyTheirs.removeAll(x.keySet());
        return "group "
            + i
            + " timestamps: only ours "
            + head(onlyOurs)
            + ", only OpenTSDB's "
            + head(onlyTheirs);
      }
      for (Map.Entry<String, JsonNode> e : x.entrySet()) {
        JsonNode u = e.getValue();
        JsonNode v = y.get(e.getKey());
        if (!sameValue(u, v)) {
          return "group " + i + " at " + e.getKey() + ": " + u + " vs OpenTSDB's " + v;
        }
      }
    }
    return null;
  }

  private static boolean sameValue(JsonNode u, JsonNode v) {
    if (u.isNull() || v.isNull() || u.isTextual() || v.isTextual()) {
      return u.equals(v);
    }
    if (u.isIntegralNumber() != v.isIntegralNumber()) {
      return false;
    }
    double a = u.asDouble();
    double b = v.asDouble();
    return a == b || Math.abs(a - b) <= 1e-9 * Math.max(Math.abs(a), Math.abs(b));
  }

  private static List<String> head(List<String> l) {
    return l.size() > 5 ? l.subList(0, 5) : l;
  }

  private static List<String> sortedTexts(JsonNode array) {
    List<String> out = new ArrayList<>();
    array.forEach(n -> out.add(n.asText()));
    out.sort(null);
    return out;
  }

  private static Map<String, JsonNode> fields(JsonNode o) {
    Map<String, JsonNode> m = new LinkedHashMap<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = o.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      m.put(e.getKey(), e.getValue());
    }
    return m;
  }

  private void print(
      Map<String, Map<String, Object>> f,
      java.util.Collection<String> queryNames,
      Map<String, Object> answers) {
    Map<String, Object> c = f.get("casebook");
    Map<String, Object> t = f.get("opentsdb");
    System.out.println();
    System.out.println(
        "bench tsdb: Casebook vs OpenTSDB 2.4.1 on the same embedded HBase (higher rate, lower"
            + " time and bytes are better)");
    String fmt = "%-44s %16s %16s %10s%n";
    System.out.printf(Locale.ROOT, fmt, "step", "Casebook", "OpenTSDB", "C / O");
    for (String phase : List.of("telnet1", "telnet4", "http", "httpSync")) {
      double cr = (double) ((Map<?, ?>) c.get(phase)).get("pointsPerSecond");
      double tr = (double) ((Map<?, ?>) t.get(phase)).get("pointsPerSecond");
      String label =
          switch (phase) {
            case "telnet1" -> "ingest, telnet, 1 connection (points/s)";
            case "telnet4" -> "ingest, telnet, 4 connections (points/s)";
            case "http" -> "ingest, HTTP 50/batch x 4 (points/s)";
            default -> "ingest, HTTP 50/batch x 4, ?sync (points/s)";
          };
      System.out.printf(
          Locale.ROOT,
          fmt,
          label,
          String.format(Locale.ROOT, "%,.0f", cr),
          String.format(Locale.ROOT, "%,.0f", tr),
          String.format(Locale.ROOT, "%.2f", cr / tr));
    }
    for (String q : queryNames) {
      Latency cl = (Latency) c.get("query " + q + " latency");
      Latency tl = (Latency) t.get("query " + q + " latency");
      for (double p : new double[] {50, 99}) {
        System.out.printf(
            Locale.ROOT,
            fmt,
            q + " p" + (int) p + " (ms)",
            String.format(Locale.ROOT, "%.2f", cl.millis(p)),
            String.format(Locale.ROOT, "%.2f", tl.millis(p)),
            String.format(Locale.ROOT, "%.2f", cl.millis(p) / tl.millis(p)));
      }
      System.out.printf(Locale.ROOT, "%-44s %s%n", "  same answer", answers.get(q));
    }
    double cb = (double) c.get("bytesPerPoint");
    double tb = (double) t.get("bytesPerPoint");
    System.out.printf(
        Locale.ROOT,
        fmt,
        "bytes per point on disk (compacted, HFiles)",
        String.format(Locale.ROOT, "%.2f", cb),
        String.format(Locale.ROOT, "%.2f", tb),
        String.format(Locale.ROOT, "%.2f", cb / tb));
    System.out.println(
        "Telnet: until every point is readable. HTTP: until every put is answered (without ?sync"
            + " queued, with ?sync durable).");
  }

  private HttpResponse<byte[]> get(String uri) throws IOException, InterruptedException {
    return client.send(
        HttpRequest.newBuilder(URI.create(uri)).timeout(Duration.ofSeconds(60)).GET().build(),
        HttpResponse.BodyHandlers.ofByteArray());
  }

  private HttpResponse<byte[]> post(String uri, String body)
      throws IOException, InterruptedException {
    return client.send(
        HttpRequest.newBuilder(URI.create(uri))
            .timeout(Duration.ofSeconds(60))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build(),
        HttpResponse.BodyHandlers.ofByteArray());
  }

  private static String enc(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8);
  }
}
