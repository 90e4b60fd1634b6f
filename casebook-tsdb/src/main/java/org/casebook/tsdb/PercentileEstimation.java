package org.casebook.tsdb;

import java.util.Arrays;

/**
 * The three percentile estimators OpenTSDB 2.4 uses through Apache Commons Math 3.4.1's {@code
 * Percentile}: the default ("legacy") one for {@code p50..p999}, R-3 and R-7 for the {@code ep*r3}
 * and {@code ep*r7} aggregators. Written from the documented formulas of that version.
 */
enum PercentileEstimation {
  /** Position {@code p(n+1)}, linear between neighbours. */
  LEGACY {
    @Override
    double position(double p, int n) {
      return Double.compare(p, 0d) == 0 ? 0 : Double.compare(p, 1d) == 0 ? n : p * (n + 1);
    }
  },
  /** Position {@code rint(np)}, i.e. the nearest order statistic, ties to even. */
  R_3 {
    @Override
    double position(double p, int n) {
      double minLimit = 1d / 2 / n;
      return Double.compare(p, minLimit) <= 0 ? 0 : Math.rint(n * p);
    }
  },
  /** Position {@code 1 + (n-1)p}, linear between neighbours (R's and Excel's default). */
  R_7 {
    @Override
    double position(double p, int n) {
      return Double.compare(p, 0d) == 0 ? 0 : Double.compare(p, 1d) == 0 ? n : 1 + (n - 1) * p;
    }
  };

  /** The 1-based (fractional) position of quantile {@code p} in [0,1] among {@code n} values. */
  abstract double position(double p, int n);

  /**
   * The {@code percentile} (in (0,100]) of the first {@code n} values; NaN for none, the value
   * itself for one, as Commons Math does.
   */
  double evaluate(double[] values, int n, double percentile) {
    if (n == 0) {
      return Double.NaN;
    }
    if (n == 1) {
      return values[0];
    }
    double[] sorted = Arrays.copyOf(values, n);
    Arrays.sort(sorted);
    double pos = position(percentile / 100d, n);
    double floor = Math.floor(pos);
    int intPos = (int) floor;
    double dif = pos - floor;
    if (pos < 1) {
      return sorted[0];
    }
    if (pos >= n) {
      return sorted[n - 1];
    }
    double lower = sorted[intPos - 1];
    double upper = sorted[intPos];
    return lower + dif * (upper - lower);
  }
}
