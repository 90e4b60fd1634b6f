package org.casebook.bench;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
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

/**
 * The data sets of the long-range and tag_values steps written to one system: put lines made as
 * they are sent (the long-range set is millions of points, too many to hold as lines), pipelined
 * over a few telnet connections, then a wait until every point is readable. These writes set the
 * stage for the queries; their rate is recorded, not compared.
 */
final class TsdbBulkWrite {
  private static final int CONNECTIONS = 4;

  private TsdbBulkWrite() {}

  /** The lines one connection sends: its share of the data set, in send order. */
  interface Lines {
    Iterator<String> of(int connection, int connections);
  }

  /**
   * Writes {@code points} points of {@code metric} to {@code t}, their timestamps in {@code [start,
   * end)}, and waits until all are readable.
   */
  static Map<String, Object> write(
      TsdbClient t, String label, String metric, long points, long start, long end, Lines lines)
      throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(CONNECTIONS, Threads.daemon("bulk-put"));
    long started = System.nanoTime();
    int errorLines = 0;
    try (Progress p = Progress.start(t.name() + " " + label, points, "points")) {
      List<Future<Integer>> errors = new ArrayList<>();
      for (int c = 0; c < CONNECTIONS; c++) {
        Iterator<String> mine = counted(lines.of(c, CONNECTIONS), p);
        errors.add(pool.submit(() -> t.sendLines(mine)));
      }
      for (Future<Integer> f : errors) {
        errorLines += f.get();
      }
    } finally {
      pool.shutdown();
    }
    double accepted = (System.nanoTime() - started) / 1e9;
    if (errorLines > 0) {
      throw new IllegalStateException(t.name() + " refused " + errorLines + " put lines");
    }
    awaitCount(t, metric, points, start, end);
    double seconds = (System.nanoTime() - started) / 1e9;
    System.out.printf(
        Locale.ROOT,
        "%s %s: %,d points taken in %.2f s, all readable after %.2f s = %,.0f points/s%n",
        t.name(),
        label,
        points,
        accepted,
        seconds,
        points / seconds);
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("points", points);
    m.put("acceptedSeconds", accepted);
    m.put("seconds", seconds);
    m.put("pointsPerSecond", points / seconds);
    return m;
  }

  /** Advances the progress every 10,000 lines taken from {@code lines}, and at their end. */
  private static Iterator<String> counted(Iterator<String> lines, Progress p) {
    return new Iterator<>() {
      private int unreported;

      @Override
      public boolean hasNext() {
        boolean more = lines.hasNext();
        if (!more && unreported > 0) {
          p.advance(unreported);
          unreported = 0;
        }
        return more;
      }

      @Override
      public String next() {
        String line = lines.next();
        if (++unreported == 10_000) {
          p.advance(unreported);
          unreported = 0;
        }
        return line;
      }
    };
  }

  /**
   * Waits until {@code metric} counts {@code points} points in {@code [start, end)} ({@code
   * sum:0all-count}), at most ten minutes: telnet puts are answered when queued, on both sides.
   */
  private static void awaitCount(TsdbClient t, String metric, long points, long start, long end)
      throws Exception {
    long deadline = System.nanoTime() + 600_000_000_000L;
    long seen = 0;
    while (System.nanoTime() < deadline) {
      HttpResponse<byte[]> r;
      try {
        r =
            t.get(
                "/api/query?start="
                    + start
                    + "&end="
                    + (end - 1)
                    + "&m="
                    + TsdbClient.enc("sum:0all-count:" + metric));
      } catch (HttpTimeoutException e) {
        // OpenTSDB's client can keep asking a region server for a scanner the region's split
        // closed, and its query never ends; a new query opens new scanners.
        System.out.printf("%s: the count query timed out; asking again%n", t.name());
        continue;
      }
      seen = 0;
      if (r.statusCode() == 200) {
        for (JsonNode g : Json.mapper().readTree(r.body())) {
          for (JsonNode v : g.get("dps")) {
            seen += v.asLong();
          }
        }
      }
      if (seen >= points) {
        return;
      }
      Thread.sleep(500);
    }
    throw new IllegalStateException(
        t.name() + ": " + seen + " of " + points + " points readable after 10 minutes");
  }
}
