package org.casebook.tsdb;

import java.nio.ByteBuffer;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What one query has read so far against its {@link QueryLimits}, shared by the parts of a query
 * read side by side. The store reports every row as it reads it and stops at the first refusal, so
 * a query past a limit costs no more than the limit (OpenTSDB checks before each batch of rows).
 */
final class QueryBudget {
  private final QueryLimits limits;
  private final long startedNanos;
  private final boolean timed;
  private final long deadlineNanos;
  private final AtomicLong points = new AtomicLong();
  private final Set<ByteBuffer> series = ConcurrentHashMap.newKeySet();
  private volatile QueryLimitException refused;

  QueryBudget(QueryLimits limits, long startedNanos) {
    this.limits = limits;
    this.startedNanos = startedNanos;
    this.timed = !limits.timeout().isZero();
    this.deadlineNanos = startedNanos + limits.timeout().toNanos();
  }

  /** No limit at all: for reads that are not queries (a delete's own pass over its rows). */
  static QueryBudget unlimited() {
    return new QueryBudget(new QueryLimits(0, 0, java.time.Duration.ZERO), System.nanoTime());
  }

  /**
   * One row read: its series (the tag run, counted once however many hours and parts hold it) and
   * the points it added. Throws when this row passes a limit, or another part already did.
   */
  void row(ByteBuffer seriesTags, boolean seenInThisPart, int pointsAdded) {
    check();
    long total = points.addAndGet(pointsAdded);
    if (limits.maxPoints() > 0 && total > limits.maxPoints()) {
      refuse(
          new QueryLimitException(
              TsdbConfig.QUERY_MAX_POINTS.name(),
              "Sorry, you have attempted to fetch more than our limit of "
                  + limits.maxPoints()
                  + " data points. Please try filtering using more tags or decrease your time"
                  + " range. (casebook setting tsdb."
                  + TsdbConfig.QUERY_MAX_POINTS.name()
                  + ")"));
    }
    if (!seenInThisPart && series.add(seriesTags)) {
      if (limits.maxSeries() > 0 && series.size() > limits.maxSeries()) {
        refuse(
            new QueryLimitException(
                TsdbConfig.QUERY_MAX_SERIES.name(),
                "Sorry, you have attempted to fetch more than our limit of "
                    + limits.maxSeries()
                    + " time series. Please try filtering using more tags or decrease your time"
                    + " range. (casebook setting tsdb."
                    + TsdbConfig.QUERY_MAX_SERIES.name()
                    + ")"));
      }
    }
  }

  /** Points a query is about to make (fill policies emit a point per interval): refused if over. */
  void willEmit(long emitted) {
    check();
    if (limits.maxPoints() > 0 && emitted > limits.maxPoints()) {
      refuse(
          new QueryLimitException(
              TsdbConfig.QUERY_MAX_POINTS.name(),
              "Sorry, the query would emit "
                  + emitted
                  + " data points with its fill policy, more than our limit of "
                  + limits.maxPoints()
                  + ". Please try a longer downsample interval or decrease your time range."
                  + " (casebook setting tsdb."
                  + TsdbConfig.QUERY_MAX_POINTS.name()
                  + ")"));
    }
  }

  /** Throws if a limit was passed, by this thread or another part, or the deadline is past. */
  void check() {
    QueryLimitException r = refused;
    if (r != null) {
      throw new QueryLimitException(r.setting(), r.getMessage());
    }
    long now = System.nanoTime();
    if (timed && now - deadlineNanos > 0) {
      refuse(
          new QueryLimitException(
              TsdbConfig.QUERY_TIMEOUT.name(),
              "Sorry, your query timed out. Time limit: "
                  + limits.timeout().toMillis()
                  + " ms, fetch time: "
                  + (now - startedNanos) / 1_000_000
                  + " ms. Please try filtering using more tags or decrease your time range."
                  + " (casebook setting tsdb."
                  + TsdbConfig.QUERY_TIMEOUT.name()
                  + ")"));
    }
  }

  private void refuse(QueryLimitException e) {
    refused = e;
    throw e;
  }
}
