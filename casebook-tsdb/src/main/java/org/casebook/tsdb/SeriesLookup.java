package org.casebook.tsdb;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.ByteBuffer;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * OpenTSDB's {@code /api/search/lookup}: the series of a metric whose tags include the given pairs,
 * each with all its tags and its tsuid, in tsuid order. From the series index when the metric's
 * series are all in it (one bounded scan of the metric's series), else from the row keys of every
 * hour of the metric's data (as OpenTSDB's lookup without meta tables does).
 */
final class SeriesLookup {
  /** Hours past now a lookup's scan covers: beyond any point a write may carry. */
  private static final int HOURS_AHEAD = 24 * 366;

  private final QueryRunner queries;
  private final PointStore points;
  private final SeriesIndex index;
  private final Clock clock;
  private final Counter indexRows;
  private final Counter dataRows;

  SeriesLookup(
      QueryRunner queries,
      PointStore points,
      SeriesIndex index,
      Clock clock,
      MeterRegistry meters) {
    this.queries = queries;
    this.points = points;
    this.index = index;
    this.clock = clock;
    this.indexRows = meters.counter("casebook.tsdb.lookup.rows", "source", "index");
    this.dataRows = meters.counter("casebook.tsdb.lookup.rows", "source", "data");
  }

  /** OpenTSDB's lookup answer: the series of {@link #lookup}, timed. */
  LookupAnswer answer(String metric, List<TagPair> tags, int limit) {
    long started = System.nanoTime();
    Map<String, String> required = new LinkedHashMap<>();
    for (TagPair t : tags) {
      required.put(t.key(), t.value());
    }
    List<LookupResult> results = lookup(metric, required, limit);
    return new LookupAnswer(
        "LOOKUP",
        metric,
        tags,
        limit,
        (System.nanoTime() - started) / 1_000_000,
        results,
        0,
        results.size());
  }

  /**
   * Series of {@code metric} whose tags include every {@code required} pair ({@code *} as a value:
   * any value of that key), at most {@code limit}.
   */
  List<LookupResult> lookup(String metric, Map<String, String> required, int limit) {
    byte[] metricId = queries.metricId(metric);
    return index.complete(metricId)
        ? fromIndex(metric, metricId, required, limit)
        : fromData(metric, metricId, required, limit);
  }

  /** The answer from the series index (the metric's series must all be in it). */
  List<LookupResult> fromIndex(
      String metric, byte[] metricId, Map<String, String> required, int limit) {
    List<LookupResult> out = new ArrayList<>();
    index.series(
        metricId,
        clock.millis(),
        tags -> {
          indexRows.increment();
          return collect(metric, metricId, tags, required, limit, out);
        });
    return out;
  }

  /** The answer from the metric's data rows: every row of every hour, keys only. */
  List<LookupResult> fromData(
      String metric, byte[] metricId, Map<String, String> required, int limit) {
    // In tsuid order, as the index's rows are: the same limit cuts the same answer.
    TreeSet<byte[]> series = new TreeSet<>(Arrays::compareUnsigned);
    points.rowTags(
        metricId,
        0,
        TsdbKeys.hourOf(clock.millis()) + HOURS_AHEAD,
        tags -> {
          dataRows.increment();
          series.add(tags);
        });
    List<LookupResult> out = new ArrayList<>();
    for (byte[] tags : series) {
      if (!collect(metric, metricId, tags, required, limit, out)) {
        break;
      }
    }
    return out;
  }

  /** Adds the series to {@code out} if it matches: whether to go on. */
  private boolean collect(
      String metric,
      byte[] metricId,
      byte[] tagRun,
      Map<String, String> required,
      int limit,
      List<LookupResult> out) {
    Map<String, String> tags = queries.tagNames(ByteBuffer.wrap(tagRun));
    if (matches(tags, required)) {
      out.add(new LookupResult(TsdbKeys.tsuid(metricId, tagRun), metric, tags));
    }
    return out.size() < limit;
  }

  private static boolean matches(Map<String, String> tags, Map<String, String> required) {
    Predicate<Map.Entry<String, String>> has =
        req -> {
          String v = tags.get(req.getKey());
          return v != null && (req.getValue().equals("*") || req.getValue().equals(v));
        };
    return required.entrySet().stream().allMatch(has);
  }
}
