package org.casebook.tsdb.gen;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.NoSuchElementException;
import java.util.SplittableRandom;
import java.util.function.LongConsumer;
import java.util.zip.GZIPOutputStream;
import org.casebook.core.InvalidInputException;
import org.casebook.core.LocalFileException;

/**
 * Collector-like traffic in OpenTSDB's import line format ({@code metric timestamp value tagk=tagv
 * …}): {@code hosts} hosts each reporting {@code metrics} metrics every {@code intervalSeconds}, as
 * tcollector would — counters that only grow (bytes, packets, reads) and gauges that wander (CPU
 * share, free memory, load). On request a share of points arrive late (out of order, within the
 * last ten intervals) or twice.
 */
public final class TsdbGenerator {
  private static final String[] COUNTERS = {
    "sys.net.bytes_in", "sys.net.bytes_out", "sys.net.packets_in", "sys.disk.reads",
    "sys.disk.writes", "proc.stat.ctxt", "proc.stat.intr", "net.tcp.retransmits"
  };
  private static final String[] GAUGES = {
    "sys.cpu.user", "sys.cpu.system", "sys.mem.free", "proc.loadavg.1m",
    "sys.cpu.iowait", "sys.mem.cached", "proc.loadavg.5m", "df.bytes.free"
  };
  private static final String[] DATACENTERS = {"lga", "sjc", "fra", "sin"};

  /**
   * What to generate.
   *
   * @param startSeconds epoch seconds of the first point
   * @param lateShare share of points sent late (0..1)
   * @param duplicateShare share of points sent twice (0..1)
   */
  public record Spec(
      int hosts,
      int metrics,
      int intervalSeconds,
      long startSeconds,
      int intervals,
      double lateShare,
      double duplicateShare,
      long seed) {
    public Spec {
      InvalidInputException.check(hosts >= 1 && hosts <= 1_000_000, "hosts", "hosts: 1..1000000");
      InvalidInputException.check(metrics >= 1 && metrics <= 1000, "metrics", "metrics: 1..1000");
      InvalidInputException.check(intervalSeconds >= 1, "interval", "interval: >= 1 s");
      InvalidInputException.check(startSeconds > 0, "start", "start must be after 1970");
      InvalidInputException.check(intervals >= 1, "intervals", "intervals: >= 1");
      InvalidInputException.check(lateShare >= 0 && lateShare <= 1, "late", "late: 0..1");
      InvalidInputException.check(
          duplicateShare >= 0 && duplicateShare <= 1, "duplicates", "duplicates: 0..1");
    }

    /** Points without late copies or duplicates. */
    public long points() {
      return (long) hosts * metrics * intervals;
    }
  }

  private TsdbGenerator() {}

  /** The metric names a spec reports, counters and gauges alternating. */
  public static List<String> metricNames(int metrics) {
    List<String> names = new ArrayList<>(metrics);
    for (int i = 0; i < metrics; i++) {
      String[] pool = i % 2 == 0 ? COUNTERS : GAUGES;
      String base = pool[(i / 2) % pool.length];
      int round = i / (2 * pool.length);
      names.add(round == 0 ? base : base + "." + round);
    }
    return names;
  }

  public static String hostName(int host) {
    return String.format(Locale.ROOT, "web%04d", host);
  }

  /** The lines of {@code spec} in send order (time order, but for late points). */
  public static Iterator<String> lines(Spec spec) {
    return new LineIterator(spec);
  }

  /** Writes the lines to {@code out} (gzip if its name ends in {@code .gz}): lines written. */
  public static long write(Spec spec, Path out, LongConsumer progress) {
    long n = 0;
    try (OutputStream raw = Files.newOutputStream(out);
        OutputStream o =
            out.getFileName().toString().endsWith(".gz")
                ? new GZIPOutputStream(raw, 1 << 16)
                : raw;
        BufferedWriter w =
            new BufferedWriter(new OutputStreamWriter(o, StandardCharsets.UTF_8), 1 << 16)) {
      for (Iterator<String> it = lines(spec); it.hasNext(); ) {
        w.write(it.next());
        w.write('\n');
        n++;
        if (n % 10_000 == 0) {
          progress.accept(10_000);
        }
      }
      progress.accept(n % 10_000);
    } catch (IOException e) {
      throw LocalFileException.of("write", out, e);
    }
    return n;
  }

  private static final class LineIterator implements Iterator<String> {
    private final Spec spec;
    private final List<String> metricNames;
    private final SplittableRandom random;
    private final long[] counters;
    private final double[] gauges;
    private final List<String> pending = new ArrayList<>();
    private final List<String> late = new ArrayList<>();
    private int interval;
    private int host;
    private int metric;

    LineIterator(Spec spec) {
      this.spec = spec;
      this.metricNames = metricNames(spec.metrics());
      this.random = new SplittableRandom(spec.seed());
      this.counters = new long[spec.hosts() * spec.metrics()];
      this.gauges = new double[spec.hosts() * spec.metrics()];
      for (int i = 0; i < gauges.length; i++) {
        gauges[i] = 20 + random.nextDouble() * 60;
        counters[i] = random.nextLong(1_000_000);
      }
    }

    @Override
    public boolean hasNext() {
      fill();
      return !pending.isEmpty();
    }

    @Override
    public String next() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      return pending.remove(pending.size() - 1);
    }

    private void fill() {
      while (pending.isEmpty() && interval < spec.intervals()) {
        String line = line(interval, host, metric);
        if (random.nextDouble() < spec.lateShare()) {
          late.add(line);
        } else {
          pending.add(line);
        }
        if (random.nextDouble() < spec.duplicateShare()) {
          pending.add(0, line);
        }
        if (++metric == spec.metrics()) {
          metric = 0;
          if (++host == spec.hosts()) {
            host = 0;
            interval++;
            // Late points of earlier intervals go out now, behind newer ones.
            if (!late.isEmpty() && (interval % 10 == 0 || interval == spec.intervals())) {
              pending.addAll(0, late);
              late.clear();
            }
          }
        }
      }
      if (pending.isEmpty() && !late.isEmpty()) {
        pending.addAll(late);
        late.clear();
      }
    }

    private String line(int at, int h, int m) {
      int i = h * spec.metrics() + m;
      long ts = spec.startSeconds() + (long) at * spec.intervalSeconds();
      String name = metricNames.get(m);
      String value;
      if (m % 2 == 0) {
        counters[i] += 1 + random.nextLong(5_000);
        value = Long.toString(counters[i]);
      } else if (name.startsWith("sys.mem") || name.startsWith("df.")) {
        gauges[i] = Math.max(0, gauges[i] + random.nextGaussian() * 2);
        value = Long.toString((long) (gauges[i] * 1_000_000));
      } else {
        gauges[i] = Math.min(100, Math.max(0, gauges[i] + random.nextGaussian() * 3));
        value = String.format(Locale.ROOT, "%.2f", gauges[i]);
      }
      return name
          + ' '
          + ts
          + ' '
          + value
          + " host="
          + hostName(h)
          + " dc="
          + DATACENTERS[h % DATACENTERS.length];
    }
  }
}
