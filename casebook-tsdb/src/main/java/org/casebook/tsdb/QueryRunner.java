package org.casebook.tsdb;

import java.nio.ByteBuffer;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.casebook.core.Futures;
import org.casebook.core.InvalidInputException;

/** Reads series for queries: rows of a metric over an hour range, grouped into series. */
final class QueryRunner {
  private final PointStore store;
  private final Rollups rollups;
  private final Uids uids;
  private final Compactor compactor;
  private final Clock clock;
  private final ExecutorService sideWork;
  private final int maxTags;
  private final QueryLimits limits;

  /** A query over this many hours or more reads its hours in parts, side by side. */
  static final int HOURS_PER_PART = 6;

  static final int MAX_PARTS = 4;

  /** A query over this many days of rollups or more reads them in parts, side by side. */
  static final int DAYS_PER_ROLLUP_PART = 7;

  static final int MAX_ROLLUP_PARTS = 2;

  QueryRunner(
      PointStore store,
      Rollups rollups,
      Uids uids,
      Compactor compactor,
      Clock clock,
      ExecutorService sideWork,
      int maxTags,
      QueryLimits limits) {
    this.maxTags = maxTags;
    this.limits = limits;
    this.store = store;
    this.rollups = rollups;
    this.uids = uids;
    this.compactor = compactor;
    this.clock = clock;
    this.sideWork = sideWork;
  }

  long nowMs() {
    return clock.millis();
  }

  /** The id of a metric a query names; OpenTSDB's error when it has none. */
  byte[] metricId(String metric) {
    return uids.find(UidKind.METRIC, metric)
        .orElseThrow(
            () ->
                new InvalidInputException(
                    "metric", "No such name for 'metrics': '" + metric + "'"));
  }

  /**
   * Every series of {@code metric} with points in {@code [fromMs, toMs]}, each with only those
   * points, in row-key order of their tags.
   */
  List<Series> fetch(String metric, long fromMs, long toMs) {
    return fetch(metric, fromMs, toMs, Optional.empty());
  }

  /**
   * As {@link #fetch(String, long, long)}, reading only rows {@code plan} keeps. A long range
   * without a plan is read in consecutive parts of hours on the side-work pool (a day's query waits
   * for its slowest quarter instead of for all of it); the parts are joined in hour order.
   */
  List<Series> fetch(String metric, long fromMs, long toMs, Optional<TagScanPlan> plan) {
    return fetch(metric, fromMs, toMs, plan, QueryBudget.unlimited());
  }

  /** As {@link #fetch(String, long, long, Optional)}, cut off when {@code budget} refuses a row. */
  List<Series> fetch(
      String metric, long fromMs, long toMs, Optional<TagScanPlan> plan, QueryBudget budget) {
    byte[] metricId = metricId(metric);
    int fromHour = TsdbKeys.hourOf(Math.max(0, fromMs));
    int toHour = TsdbKeys.hourOf(Math.max(0, toMs));
    int hours = toHour - fromHour + 1;
    // Only a scan that returns every row of the range is split: with a row filter the region
    // server skips most rows itself, and each part would add its own scanner's round trips to a
    // few milliseconds of work (measured: the filtered one-series query got slower, the
    // unfiltered all-series query faster).
    int parts = plan.isPresent() ? 1 : Math.min(MAX_PARTS, Math.max(1, hours / HOURS_PER_PART));
    List<Map<ByteBuffer, List<DataPoint>>> read = new ArrayList<>(parts);
    if (parts == 1) {
      read.add(readHours(metricId, fromHour, toHour, fromMs, toMs, plan, budget));
    } else {
      int perPart = (hours + parts - 1) / parts;
      List<Future<Map<ByteBuffer, List<DataPoint>>>> pending = new ArrayList<>(parts);
      for (int first = fromHour; first <= toHour; first += perPart) {
        int a = first;
        int b = Math.min(toHour, first + perPart - 1);
        pending.add(sideWork.submit(() -> readHours(metricId, a, b, fromMs, toMs, plan, budget)));
      }
      try {
        for (Future<Map<ByteBuffer, List<DataPoint>>> f : pending) {
          read.add(Futures.await(f));
        }
      } catch (RuntimeException e) {
        // The other parts stop at their next row (the budget is shared); cancel any not started.
        pending.forEach(f -> f.cancel(false));
        throw e;
      }
    }
    // Series in order of first appearance, each series' parts in hour order.
    Map<ByteBuffer, List<DataPoint>> byTags = read.get(0);
    for (int i = 1; i < read.size(); i++) {
      read.get(i)
          .forEach(
              (tags, points) ->
                  byTags.merge(
                      tags,
                      points,
                      (earlier, later) -> {
                        earlier.addAll(later);
                        return earlier;
                      }));
    }
    List<Series> out = new ArrayList<>(byTags.size());
    Map<ByteBuffer, Map<String, String>> tagNames = new HashMap<>();
    for (Map.Entry<ByteBuffer, List<DataPoint>> e : byTags.entrySet()) {
      if (e.getValue().isEmpty()) {
        continue;
      }
      Map<String, String> tags = tagNames.computeIfAbsent(e.getKey(), this::tagNames);
      out.add(new Series(metric, tags, e.getValue()));
    }
    return out;
  }

  /** The points in {@code [fromMs, toMs]} of rows of hours {@code [fromHour, toHour]}, by tags. */
  private Map<ByteBuffer, List<DataPoint>> readHours(
      byte[] metricId,
      int fromHour,
      int toHour,
      long fromMs,
      long toMs,
      Optional<TagScanPlan> plan,
      QueryBudget budget) {
    return store.readPoints(
        metricId, fromHour, toHour, fromMs, toMs, plan, compactor::noticeUncompacted, budget);
  }

  /**
   * Answers {@code q} as {@link #run} does, then deletes the points each sub-query selects (its
   * metric, the series its filters select) from {@code q}'s start to its end, both included: the
   * answer as it was before, and the number of points deleted.
   */
  DeletedPoints delete(OpenTsdbQuery q) {
    List<List<QueryResult>> answer = run(q);
    long points = 0;
    int fromHour = TsdbKeys.hourOf(Math.max(0, q.startMs()));
    int toHour = TsdbKeys.hourOf(Math.max(0, q.endMs()));
    for (SubQuery sub : q.queries()) {
      java.util.function.Predicate<Map<String, String>> selects =
          QueryEngine.selector(sub, uidOrder());
      Map<ByteBuffer, Boolean> decided = new HashMap<>();
      List<byte[]> rewritten = new ArrayList<>();
      points +=
          store.deletePoints(
              metricId(sub.metric()),
              fromHour,
              toHour,
              q.startMs(),
              q.endMs(),
              TagScanPlan.of(sub, uids, maxTags)
                  .map(p -> TagRowFilter.of(p, store.keys()))
                  .orElse(null),
              tags -> decided.computeIfAbsent(tags, t -> selects.test(tagNames(t))),
              rewritten::add);
      rollups.rewritten(rewritten);
    }
    return new DeletedPoints(answer, points);
  }

  /** Tag names and values of a row's tag bytes. */
  Map<String, String> tagNames(ByteBuffer tagBytes) {
    Map<String, String> tags = new TreeMap<>();
    for (byte[][] pair : TsdbKeys.tagIds(tagBytes.array())) {
      tags.put(uids.name(UidKind.TAGK, pair[0]), uids.name(UidKind.TAGV, pair[1]));
    }
    return tags;
  }

  /** Answers every sub-query of {@code q}, in order. */
  List<List<QueryResult>> run(OpenTsdbQuery q) {
    QueryBudget budget = limits.start();
    List<List<QueryResult>> out = new ArrayList<>(q.queries().size());
    for (SubQuery sub : q.queries()) {
      metricId(sub.metric());
      for (String k : sub.filterTagKeys()) {
        if (uids.find(UidKind.TAGK, k).isEmpty()) {
          throw new InvalidInputException("filters", "No such name for 'tagk': '" + k + "'");
        }
      }
      for (String v : sub.literalTagValues()) {
        if (uids.find(UidKind.TAGV, v).isEmpty()) {
          throw new InvalidInputException("filters", "No such name for 'tagv': '" + v + "'");
        }
      }
      ScanWindow window = ScanWindow.of(q.startMs(), q.endMs(), sub.downsample());
      Optional<TagScanPlan> plan = TagScanPlan.of(sub, uids, maxTags);
      Optional<List<Series>> rolled = fetchRolled(sub, window, plan, budget);
      List<Series> series =
          rolled.isPresent()
              ? rolled.get()
              : fetch(sub.metric(), window.startMs(), window.endMs() - 1, plan, budget);
      budget.willEmit(filledPoints(sub, window, series.size()));
      out.add(QueryEngine.run(sub, q.startMs(), q.endMs(), series, uidOrder(), rolled.isPresent()));
      budget.check();
    }
    return out;
  }

  /**
   * The series of {@code sub} already downsampled from hourly rollups, when its downsampling spans
   * whole hours with a function a rollup holds and its {@code rollupUsage} lets it (see {@link
   * RollupUsage}); empty: read the points.
   */
  private Optional<List<Series>> fetchRolled(
      SubQuery sub, ScanWindow window, Optional<TagScanPlan> plan, QueryBudget budget) {
    RollupUsage usage = sub.rollupUsage();
    if (usage == RollupUsage.RAW || !RolledDownsample.answers(sub)) {
      return Optional.empty();
    }
    byte[] metricId = metricId(sub.metric());
    int fromHour = TsdbKeys.hourOf(window.startMs());
    int toHour = TsdbKeys.hourOf(window.endMs());
    int rolledTo = Math.max(fromHour, Math.min(toHour, rollups.rolledBefore(metricId)));
    Map<ByteBuffer, RolledHours> hours = readRollups(metricId, fromHour, rolledTo, plan, budget);
    if (usage == RollupUsage.AUTO && rolledTo < toHour) {
      // The hours not rolled up yet, from their points, as rollups of their own.
      Map<ByteBuffer, List<DataPoint>> recent =
          readHours(
              metricId,
              rolledTo,
              toHour - 1,
              TsdbKeys.hourStartMs(rolledTo),
              window.endMs() - 1,
              plan,
              budget);
      recent.forEach(
          (tags, points) ->
              RolledDownsample.addHours(
                  points, hours.computeIfAbsent(tags, t -> new RolledHours(points.size()))));
    } else if ((usage == RollupUsage.FALLBACK || usage == RollupUsage.FALLBACK_RAW)
        && hours.values().stream().allMatch(h -> h.size() == 0)) {
      // OpenTSDB falls back when the rollups hold nothing; one rollup interval: to the points.
      return Optional.empty();
    }
    long rolled = 0;
    int withPoints = 0;
    for (RolledHours h : hours.values()) {
      rolled += h.size();
      withPoints += h.anyPoints() ? 1 : 0;
    }
    // Downsampling allocates every filled interval: refuse a query over the limit before that.
    budget.willEmit(filledPoints(sub, window, withPoints));
    // Series are independent: a large answer's are downsampled side by side.
    Stream<Map.Entry<ByteBuffer, RolledHours>> each =
        rolled >= QueryEngine.PARALLEL_POINTS
            ? hours.entrySet().parallelStream()
            : hours.entrySet().stream();
    return Optional.of(
        each
            // A series with no point in the window is not in the answer, as with the points' path.
            .filter(e -> e.getValue().anyPoints())
            .map(
                e ->
                    new Series(
                        sub.metric(),
                        tagNames(e.getKey()),
                        RolledDownsample.downsample(e.getValue(), sub.downsample().get(), window)))
            .toList());
  }

  /**
   * The rollups of hours {@code [fromHour, toHour)} by series, each series' hours ascending. A long
   * range without a plan is read in parts of whole days side by side, as the points are: the scan
   * of a month's day cells is most of what a query on rollups waits for besides its answer.
   */
  private Map<ByteBuffer, RolledHours> readRollups(
      byte[] metricId, int fromHour, int toHour, Optional<TagScanPlan> plan, QueryBudget budget) {
    RollupStore store = rollups.store();
    int fromDay = TsdbKeys.dayOf(fromHour);
    int days = toHour > fromHour ? TsdbKeys.dayOf(toHour - 1) - fromDay + 1 : 0;
    int parts = plan.isPresent() ? 1 : Math.min(MAX_ROLLUP_PARTS, days / DAYS_PER_ROLLUP_PART);
    if (parts <= 1) {
      return store.read(
          metricId, fromHour, toHour, plan.map(p -> TagRowFilter.of(p, store.keys())), budget);
    }
    int daysPerPart = (days + parts - 1) / parts;
    List<Future<Map<ByteBuffer, RolledHours>>> pending = new ArrayList<>(parts);
    for (int day = fromDay; day * 24 < toHour; day += daysPerPart) {
      int a = Math.max(fromHour, day * 24);
      int b = Math.min(toHour, (day + daysPerPart) * 24);
      pending.add(sideWork.submit(() -> store.read(metricId, a, b, Optional.empty(), budget)));
    }
    List<Map<ByteBuffer, RolledHours>> read = new ArrayList<>(pending.size());
    try {
      for (Future<Map<ByteBuffer, RolledHours>> f : pending) {
        read.add(Futures.await(f));
      }
    } catch (RuntimeException e) {
      // The other parts stop at their next row (the budget is shared); cancel any not started.
      pending.forEach(f -> f.cancel(false));
      throw e;
    }
    // Series in order of first appearance, each series' parts in hour order.
    Map<ByteBuffer, RolledHours> bySeries = read.get(0);
    for (int i = 1; i < read.size(); i++) {
      read.get(i)
          .forEach(
              (tags, later) ->
                  bySeries.merge(
                      tags,
                      later,
                      (earlier, more) -> {
                        earlier.addAll(more);
                        return earlier;
                      }));
    }
    return bySeries;
  }

  /**
   * The points a fill policy makes: one per interval of the window for each series (0 without a
   * downsample or with fill policy {@code none}, which emit at most the points read).
   */
  private static long filledPoints(SubQuery sub, ScanWindow window, int series) {
    Optional<DownsampleSpec> ds = sub.downsample();
    if (ds.isEmpty() || ds.get().runAll() || ds.get().fillPolicy() == FillPolicy.NONE) {
      return 0;
    }
    long intervals = (window.endMs() - window.startMs()) / Math.max(1, ds.get().intervalMs()) + 1;
    return Math.multiplyHigh(intervals, series) != 0 ? Long.MAX_VALUE : intervals * series;
  }

  /**
   * The latest point of each series of {@code metric} whose tags include {@code required}, looking
   * back {@code backScanHours} hours from now.
   */
  List<LastPoint> last(String metric, Map<String, String> required, int backScanHours) {
    byte[] metricId = metricId(metric);
    int now = TsdbKeys.hourOf(clock.millis());
    Map<ByteBuffer, LastPoint> latest = new LinkedHashMap<>();
    store.latestRows(
        metricId,
        now - backScanHours,
        now + 1,
        (tagRun, hour, rowPoints) -> {
          ByteBuffer key = ByteBuffer.wrap(tagRun);
          if (latest.containsKey(key)) {
            return true;
          }
          Map<String, String> tags = tagNames(key);
          for (Map.Entry<String, String> req : required.entrySet()) {
            if (!req.getValue().equals(tags.get(req.getKey()))) {
              latest.put(key, null);
              return true;
            }
          }
          List<DataPoint> points = rowPoints.get();
          if (!points.isEmpty()) {
            latest.put(
                key,
                new LastPoint(
                    metric, tags, TsdbKeys.tsuid(metricId, tagRun), points.get(points.size() - 1)));
          }
          return true;
        });
    List<LastPoint> out = new ArrayList<>();
    for (LastPoint p : latest.values()) {
      if (p != null) {
        out.add(p);
      }
    }
    return out;
  }

  /** The latest point of one series. */
  record LastPoint(String metric, Map<String, String> tags, String tsuid, DataPoint point) {}

  /** Tag keys and values ordered by their ids, as OpenTSDB orders groups and series. */
  TagOrder uidOrder() {
    return new TagOrder(
        (a, b) -> compareIds(UidKind.TAGK, a, b), (a, b) -> compareIds(UidKind.TAGV, a, b));
  }

  private int compareIds(UidKind kind, String a, String b) {
    if (a.equals(b)) {
      return 0;
    }
    byte[] x = uids.find(kind, a).orElse(null);
    byte[] y = uids.find(kind, b).orElse(null);
    if (x == null || y == null) {
      return x == null ? (y == null ? a.compareTo(b) : 1) : -1;
    }
    return java.util.Arrays.compareUnsigned(x, y);
  }
}
