package org.casebook.bench;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.casebook.core.Json;
import org.casebook.core.Threads;
import org.casebook.core.cli.Progress;
import org.casebook.tsdb.gen.TsdbGenerator;

/**
 * The ingest steps of {@code bench tsdb}, the same on both systems: collector-like put lines over
 * telnet (timed until every point is readable through {@code /api/query}), and the query data set
 * over HTTP in batches of 50 from 4 clients.
 */
final class TsdbIngest {
  private final TsdbBenchmark.Options o;
  private final long dayStart;

  /**
   * @param options the sizes
   * @param dayStart the first second of the data, on the hour
   */
  TsdbIngest(TsdbBenchmark.Options options, long dayStart) {
    this.o = options;
    this.dayStart = dayStart;
  }

  /** Telnet ingest: the generated lines, metric names prefixed, over {@code connections}. */
  Map<String, Object> telnet(TsdbClient t, String prefix, int connections) throws Exception {
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
      errors.add(pool.submit(() -> t.sendLines(lines)));
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
  private void awaitVisible(TsdbClient t, String prefix, int metrics, long points)
      throws Exception {
    long deadline = System.nanoTime() + 300_000_000_000L;
    List<String> names = TsdbGenerator.metricNames(metrics);
    while (System.nanoTime() < deadline) {
      long seen = 0;
      for (String name : names) {
        HttpResponse<byte[]> r =
            t.get(
                "/api/query?start="
                    + dayStart
                    + "&end="
                    + (dayStart + 3 * 86_400)
                    + "&m="
                    + TsdbClient.enc("sum:0all-count:" + prefix + name));
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

  /** Points of one HTTP ingest: {@code hosts} series over a day. */
  long httpPoints() {
    return (long) o.hosts * (86_400 / o.interval);
  }

  /** HTTP ingest of the query data set: {@code hosts} series over a day, batches of 50. */
  Map<String, Object> http(TsdbClient t, String params, String prefix) throws Exception {
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
                    HttpResponse<byte[]> resp = t.post("/api/put" + params, bodies.get(b));
                    mine.recordNanos(System.nanoTime() - s);
                    if (resp.statusCode() != 204) {
                      throw new IllegalStateException(
                          t.name()
                              + " put: "
                              + resp.statusCode()
                              + " "
                              + new String(resp.body(), StandardCharsets.UTF_8));
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
}
