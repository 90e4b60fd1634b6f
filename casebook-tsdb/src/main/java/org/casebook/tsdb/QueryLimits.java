package org.casebook.tsdb;

import java.time.Duration;
import java.util.Objects;
import org.casebook.core.InvalidInputException;

/**
 * How much one query may read and for how long (OpenTSDB's {@code tsd.query.limits.data_points},
 * {@code tsd.query.timeout}, and a series count OpenTSDB has not): a query that passes one is cut
 * off where it is and answered with a {@link QueryLimitException}. Zero turns a limit off.
 *
 * @param maxPoints the most points one query may read from storage (0: no limit)
 * @param maxSeries the most series one query may read (0: no limit)
 * @param timeout how long one query may run (zero: no limit)
 */
public record QueryLimits(long maxPoints, int maxSeries, Duration timeout) {
  /**
   * Sized for the reference machine (2 cores, 24 GiB: a default heap of 6 GiB shared with HBase).
   */
  static final QueryLimits DEFAULTS = new QueryLimits(5_000_000, 50_000, Duration.ofSeconds(30));

  public QueryLimits {
    Objects.requireNonNull(timeout, "timeout is null");
    if (maxPoints < 0) {
      throw new InvalidInputException("maxPoints", "must be >= 0");
    }
    if (maxSeries < 0) {
      throw new InvalidInputException("maxSeries", "must be >= 0");
    }
    if (timeout.isNegative()) {
      throw new InvalidInputException("timeout", "must not be negative");
    }
  }

  /** A budget for one query starting now. */
  QueryBudget start() {
    return new QueryBudget(this, System.nanoTime());
  }

  /**
   * The {@code query-timeout} setting's value: printed as it is written ({@code 30s}, {@code
   * 500ms}, {@code 0}), so that {@code config} shows what a settings file takes.
   */
  record Timeout(Duration value) {
    Timeout {
      Objects.requireNonNull(value, "value is null");
    }

    /** OpenTSDB's duration syntax ({@code 500ms}, {@code 30s}, {@code 2m}, {@code 1h}) or 0. */
    static Timeout parse(String text) {
      String t = text.strip();
      if (t.equals("0")) {
        return new Timeout(Duration.ZERO);
      }
      try {
        return new Timeout(Duration.ofMillis(TsdbDuration.parseMillis(t, "query-timeout")));
      } catch (InvalidInputException e) {
        throw new IllegalArgumentException(
            "must be 0 or a duration such as 500ms, 30s or 2m, got '" + text + "'", e);
      }
    }

    @Override
    public String toString() {
      long ms = value.toMillis();
      if (ms == 0) {
        return "0";
      }
      return ms % 1000 == 0 ? ms / 1000 + "s" : ms + "ms";
    }
  }
}
