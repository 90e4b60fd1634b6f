package org.casebook.tsdb;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One of OpenTSDB 2.4's aggregation functions, used both across the series of a group and inside a
 * downsampling interval. Each keeps OpenTSDB's two code paths: {@link #runLong} with Java {@code
 * long} arithmetic (overflow wraps, {@code avg} truncates) used when every value involved is an
 * integer, and {@link #runDouble} where most functions skip NaN.
 *
 * @param name the name in queries and in {@code /api/aggregators}
 * @param interpolation what a group assumes for a series with no point at a timestamp
 * @param function the computation
 * @param percentile for {@link Function#PERCENTILE}, the percentile in (0,100]; else 0
 * @param longEstimation for percentiles, the estimator on the integer path (OpenTSDB honours the
 *     {@code ep*r3}/{@code ep*r7} estimator only there; its double path always uses the default)
 */
record Aggregator(
    String name,
    Interpolation interpolation,
    Function function,
    double percentile,
    PercentileEstimation longEstimation) {

  /** The computations; several aggregators share one and differ in interpolation only. */
  enum Function {
    SUM,
    SQUARE_SUM,
    MIN,
    MAX,
    AVG,
    MEDIAN,
    NONE,
    MULTIPLY,
    DEV,
    DIFF,
    COUNT,
    FIRST,
    LAST,
    PERCENTILE
  }

  static final Aggregator SUM = of("sum", Interpolation.LERP, Function.SUM);
  static final Aggregator NONE = of("none", Interpolation.ZIM, Function.NONE);
  static final Aggregator AVG = of("avg", Interpolation.LERP, Function.AVG);

  /** Name to aggregator, in the insertion order and map type OpenTSDB uses (see {@link #names}). */
  private static final Map<String, Aggregator> BY_NAME = registry();

  private static Aggregator of(String name, Interpolation interpolation, Function function) {
    return new Aggregator(name, interpolation, function, 0, PercentileEstimation.LEGACY);
  }

  private static Aggregator percentile(String name, double p, PercentileEstimation estimation) {
    return new Aggregator(name, Interpolation.LERP, Function.PERCENTILE, p, estimation);
  }

  // OpenTSDB fills a java.util.HashMap (initial capacity 8) in this order and answers
  // /api/aggregators with its key set, so the same map gives the same JSON order.
  @SuppressWarnings("NonApiType") // HashMap on purpose: its iteration order is the API's order.
  private static Map<String, Aggregator> registry() {
    HashMap<String, Aggregator> map = new HashMap<>(8);
    for (Aggregator a :
        List.of(
            SUM,
            of("min", Interpolation.LERP, Function.MIN),
            of("max", Interpolation.LERP, Function.MAX),
            AVG,
            NONE,
            of("median", Interpolation.LERP, Function.MEDIAN),
            of("mult", Interpolation.LERP, Function.MULTIPLY),
            of("dev", Interpolation.LERP, Function.DEV),
            of("diff", Interpolation.LERP, Function.DIFF),
            of("count", Interpolation.ZIM, Function.COUNT),
            of("zimsum", Interpolation.ZIM, Function.SUM),
            of("mimmin", Interpolation.MAX, Function.MIN),
            of("mimmax", Interpolation.MIN, Function.MAX),
            of("first", Interpolation.ZIM, Function.FIRST),
            of("last", Interpolation.ZIM, Function.LAST),
            of("pfsum", Interpolation.PREV, Function.SUM),
            of("squareSum", Interpolation.ZIM, Function.SQUARE_SUM))) {
      map.put(a.name(), a);
    }
    double[] ps = {99.9, 99, 95, 90, 75, 50};
    String[] suffixes = {"999", "99", "95", "90", "75", "50"};
    for (int i = 0; i < ps.length; i++) {
      map.put("p" + suffixes[i], percentile("p" + suffixes[i], ps[i], PercentileEstimation.LEGACY));
    }
    for (int i = 0; i < ps.length; i++) {
      String name = "ep" + suffixes[i] + "r3";
      map.put(name, percentile(name, ps[i], PercentileEstimation.R_3));
    }
    for (int i = 0; i < ps.length; i++) {
      String name = "ep" + suffixes[i] + "r7";
      map.put(name, percentile(name, ps[i], PercentileEstimation.R_7));
    }
    return map;
  }

  /** The aggregator names in the order OpenTSDB 2.4.1 lists them in {@code /api/aggregators}. */
  static List<String> names() {
    return List.copyOf(new ArrayList<>(BY_NAME.keySet()));
  }

  /** The aggregator with this exact (case-sensitive, as in OpenTSDB) name. */
  static Optional<Aggregator> byName(String name) {
    return Optional.ofNullable(BY_NAME.get(name));
  }

  /** Aggregates {@code values[0..n)}, n &ge; 1, with OpenTSDB's integer semantics. */
  long runLong(long[] values, int n) {
    return switch (function) {
      case SUM, AVG -> {
        long r = values[0];
        for (int i = 1; i < n; i++) {
          r += values[i];
        }
        yield function == Function.SUM ? r : r / n;
      }
      case SQUARE_SUM -> {
        long r = 0;
        for (int i = 0; i < n; i++) {
          r += values[i] * values[i];
        }
        yield r;
      }
      case MIN -> Arrays.stream(values, 0, n).min().getAsLong();
      case MAX -> Arrays.stream(values, 0, n).max().getAsLong();
      case MEDIAN -> {
        // OpenTSDB takes the upper middle element, no averaging.
        long[] sorted = Arrays.copyOf(values, n);
        Arrays.sort(sorted);
        yield sorted[n / 2];
      }
      case NONE -> {
        if (n > 1) {
          throw new IllegalStateException("More than one value in aggregator none");
        }
        yield values[0];
      }
      case MULTIPLY -> {
        long r = values[0];
        for (int i = 1; i < n; i++) {
          r *= values[i];
        }
        yield r;
      }
      case DEV -> (long) stdDev(toDoubles(values, n), n, false);
      case DIFF -> n == 1 ? 0 : values[n - 1] - values[0];
      case COUNT -> n;
      case FIRST -> values[0];
      case LAST -> values[n - 1];
      case PERCENTILE -> (long) longEstimation.evaluate(toDoubles(values, n), n, percentile);
    };
  }

  /** Aggregates {@code values[0..n)}, n &ge; 1, with OpenTSDB's floating point semantics. */
  double runDouble(double[] values, int n) {
    return switch (function) {
      case SUM, SQUARE_SUM -> {
        double r = 0;
        int used = 0;
        for (int i = 0; i < n; i++) {
          double v = values[i];
          if (!Double.isNaN(v)) {
            r += function == Function.SUM ? v : v * v;
            used++;
          }
        }
        yield used == 0 ? Double.NaN : r;
      }
      case MIN -> {
        double min = Double.isNaN(values[0]) ? Double.POSITIVE_INFINITY : values[0];
        for (int i = 1; i < n; i++) {
          if (!Double.isNaN(values[i]) && values[i] < min) {
            min = values[i];
          }
        }
        yield min == Double.POSITIVE_INFINITY ? Double.NaN : min;
      }
      case MAX -> {
        double max = Double.isNaN(values[0]) ? Double.NEGATIVE_INFINITY : values[0];
        for (int i = 1; i < n; i++) {
          if (!Double.isNaN(values[i]) && values[i] > max) {
            max = values[i];
          }
        }
        yield max == Double.NEGATIVE_INFINITY ? Double.NaN : max;
      }
      case AVG -> {
        double r = 0;
        int used = 0;
        for (int i = 0; i < n; i++) {
          if (!Double.isNaN(values[i])) {
            r += values[i];
            used++;
          }
        }
        yield used == 0 ? Double.NaN : r / used;
      }
      case MEDIAN -> {
        double[] kept = withoutNaN(values, n);
        if (kept.length == 0) {
          yield Double.NaN;
        }
        Arrays.sort(kept);
        yield kept[kept.length / 2];
      }
      case NONE -> {
        if (n > 1) {
          throw new IllegalStateException("More than one value in aggregator none");
        }
        yield values[0];
      }
      case MULTIPLY -> {
        double r = values[0];
        for (int i = 1; i < n; i++) {
          r *= values[i];
        }
        yield r;
      }
      case DEV -> stdDev(values, n, true);
      case DIFF -> diff(values, n);
      case COUNT -> {
        double count = 0;
        for (int i = 0; i < n; i++) {
          if (!Double.isNaN(values[i])) {
            count++;
          }
        }
        yield count;
      }
      case FIRST -> values[0];
      case LAST -> values[n - 1];
      case PERCENTILE -> {
        double[] kept = withoutNaN(values, n);
        // OpenTSDB's double path builds a default (legacy) Percentile whatever the aggregator.
        yield kept.length == 0
            ? Double.NaN
            : PercentileEstimation.LEGACY.evaluate(kept, kept.length, percentile);
      }
    };
  }

  private static double[] toDoubles(long[] values, int n) {
    double[] d = new double[n];
    for (int i = 0; i < n; i++) {
      d[i] = values[i];
    }
    return d;
  }

  private static double[] withoutNaN(double[] values, int n) {
    return Arrays.stream(values, 0, n).filter(v -> !Double.isNaN(v)).toArray();
  }

  /**
   * Welford's running standard deviation as OpenTSDB computes it: its divisor ends up being the
   * number of values, so this is the POPULATION deviation. The double path skips NaN.
   */
  private static double stdDev(double[] values, int n, boolean skipNaN) {
    int i = 0;
    double oldMean = values[i++];
    while (skipNaN && Double.isNaN(oldMean) && i < n) {
      oldMean = values[i++];
    }
    if (Double.isNaN(oldMean)) {
      return Double.NaN;
    }
    if (i >= n) {
      return 0;
    }
    long count = 2;
    double m2 = 0;
    for (; i < n; i++) {
      double x = values[i];
      if (!(skipNaN && Double.isNaN(x))) {
        double newMean = oldMean + (x - oldMean) / count;
        m2 += (x - oldMean) * (x - newMean);
        oldMean = newMean;
        count++;
      }
    }
    return count == 2 ? 0 : Math.sqrt(m2 / (count - 1));
  }

  /** Last minus first non-NaN value; the last value is taken as is, even NaN, as OpenTSDB does. */
  private static double diff(double[] values, int n) {
    int i = 0;
    double first = values[i++];
    while (Double.isNaN(first) && i < n) {
      first = values[i++];
    }
    if (Double.isNaN(first)) {
      return Double.NaN;
    }
    if (i >= n) {
      return 0;
    }
    return values[n - 1] - first;
  }
}
