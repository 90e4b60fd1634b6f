package org.casebook.trails;

import static org.casebook.trails.TrailsSchema.D;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.Filter;
import org.apache.hadoop.hbase.filter.FilterList;
import org.apache.hadoop.hbase.filter.MultiRowRangeFilter;
import org.apache.hadoop.hbase.util.Bytes;
import org.casebook.core.Futures;
import org.casebook.core.StorageException;
import org.casebook.core.SystemContext;
import org.casebook.core.key.KeyRange;

/**
 * Every read of the events table (seed 000): runs a {@link TrailPlan}, decoding each row's cells in
 * place ({@link TrailsRowCodec#decodeRow}).
 */
final class EventStore {
  private static final int GET_BATCH = 1000;

  private final Connection connection;
  private final TrailsSchema schema;

  /**
   * The platform's shared pool: the per-region scans of a multi-user query run side by side on it.
   */
  private final ExecutorService sideWork;

  /** Finds the behaviour of each row's id, built-in or declared. */
  private final BehaviourLookup behaviours;

  EventStore(SystemContext context, TrailsSchema schema, BehaviourLookup behaviours) {
    this.connection = context.connection();
    this.schema = schema;
    this.sideWork = context.sideWork();
    this.behaviours = behaviours;
  }

  /** Runs a trail plan; the events come back in no particular order. */
  List<Event> read(TrailPlan plan) {
    if (plan.kind() == TrailPlan.Kind.GETS) {
      return get(plan.gets());
    }
    if (plan.scans().size() == 1) {
      return scan(plan.scans().get(0));
    }
    List<List<TrailPlan.UserScan>> byRegion = groupByRegion(plan.scans());
    List<Future<List<Event>>> parts = new ArrayList<>(byRegion.size());
    for (List<TrailPlan.UserScan> group : byRegion) {
      parts.add(sideWork.submit(() -> scanRanges(group)));
    }
    List<Event> out = new ArrayList<>();
    try {
      for (Future<List<Event>> part : parts) {
        out.addAll(Futures.await(part));
      }
    } finally {
      parts.forEach(p -> p.cancel(true));
    }
    return out;
  }

  /** The GETS plan: batched Gets, only the requested fields' columns; events rebuilt per row. */
  private List<Event> get(List<TrailPlan.RowGet> wanted) {
    List<Event> out = new ArrayList<>();
    try (Table t = connection.getTable(schema.events())) {
      for (int from = 0; from < wanted.size(); from += GET_BATCH) {
        List<TrailPlan.RowGet> chunk =
            wanted.subList(from, Math.min(wanted.size(), from + GET_BATCH));
        Result[] results =
            t.get(
                chunk.stream()
                    .map(w -> TrailsRowCodec.get(w.uid(), w.day(), w.behaviour(), w.fields()))
                    .toList());
        for (int i = 0; i < results.length; i++) {
          TrailsRowCodec.decodeRow(
              chunk.get(i).uid(), chunk.get(i).day(), chunk.get(i).behaviour(), results[i], out);
        }
      }
      return out;
    } catch (IOException e) {
      throw StorageException.of("read events", e);
    }
  }

  /**
   * The SCAN plan for one user: a user's rows for consecutive days are contiguous. Positional reads
   * (PREAD) here and in the other small scans: a trail is a few blocks, and by default the region
   * server switches a scan past four blocks to a stream reader of its own per store file.
   */
  private List<Event> scan(TrailPlan.UserScan s) {
    Scan scan =
        TrailsKeys.eventDays(s.uid(), s.firstDay(), s.lastDay())
            .toScan()
            .addFamily(D)
            .setCaching(1000)
            .setReadType(Scan.ReadType.PREAD);
    if (!s.fields().isEmpty()) {
      scan.setFilter(TrailsRowCodec.columnPrefixes(s.fields()));
    }
    List<Event> out = new ArrayList<>();
    try (Table t = connection.getTable(schema.events());
        ResultScanner rs = t.getScanner(scan)) {
      for (Result r : rs) {
        TrailsKeys.EventRow row = TrailsKeys.eventRowOf(r.getRow());
        Behaviour b = behaviours.requireId(row.behaviourId());
        if (s.types().contains(b)) {
          TrailsRowCodec.decodeRow(s.uid(), row.day(), b, r, out);
        }
      }
      return out;
    } catch (IOException e) {
      throw StorageException.of("scan events", e);
    }
  }

  /**
   * Several users' scans grouped by the events region their range starts in, so that each group is
   * one {@link #scanRanges}. Each location comes from the connection's region cache (not {@code
   * getStartKeys()}, which reads {@code hbase:meta} on every call); a stale one costs only speed.
   */
  private List<List<TrailPlan.UserScan>> groupByRegion(List<TrailPlan.UserScan> scans) {
    Map<String, List<TrailPlan.UserScan>> groups = new LinkedHashMap<>();
    try (RegionLocator locator = connection.getRegionLocator(schema.events())) {
      for (TrailPlan.UserScan s : scans) {
        byte[] start = TrailsKeys.eventDays(s.uid(), s.firstDay(), s.lastDay()).start();
        String region = locator.getRegionLocation(start).getRegion().getEncodedName();
        groups.computeIfAbsent(region, r -> new ArrayList<>()).add(s);
      }
    } catch (IOException e) {
      throw StorageException.of("locate the events regions", e);
    }
    return List.copyOf(groups.values());
  }

  /**
   * One Scan for several users' day ranges: from the first range's start to the last one's stop,
   * with a {@code MultiRowRangeFilter} so that the region server seeks from one user's rows to the
   * next instead of reading what lies between. One call to the region server instead of one per
   * user (the ranges of a group start in one region; a range that runs into the next region is
   * still read whole, by the same scanner).
   */
  private List<Event> scanRanges(List<TrailPlan.UserScan> group) {
    Map<String, TrailPlan.UserScan> byUser = new HashMap<>();
    List<MultiRowRangeFilter.RowRange> ranges = new ArrayList<>(group.size());
    byte[] first = null;
    byte[] last = null;
    for (TrailPlan.UserScan s : group) {
      byUser.put(s.uid(), s);
      KeyRange r = TrailsKeys.eventDays(s.uid(), s.firstDay(), s.lastDay());
      ranges.add(new MultiRowRangeFilter.RowRange(r.start(), true, r.stop(), false));
      first = first == null || Bytes.compareTo(r.start(), first) < 0 ? r.start() : first;
      last = last == null || Bytes.compareTo(r.stop(), last) > 0 ? r.stop() : last;
    }
    // Every scan of one plan asks for the same fields (they come from one query).
    List<String> fields = group.get(0).fields();
    Filter filter = new MultiRowRangeFilter(ranges);
    if (!fields.isEmpty()) {
      filter =
          new FilterList(
              FilterList.Operator.MUST_PASS_ALL, filter, TrailsRowCodec.columnPrefixes(fields));
    }
    Scan scan =
        new Scan()
            .withStartRow(first)
            .withStopRow(last)
            .addFamily(D)
            .setFilter(filter)
            .setCaching(1000)
            .setReadType(Scan.ReadType.PREAD);
    List<Event> out = new ArrayList<>();
    try (Table t = connection.getTable(schema.events());
        ResultScanner rs = t.getScanner(scan)) {
      for (Result r : rs) {
        TrailsKeys.EventRow row = TrailsKeys.eventRowOf(r.getRow());
        TrailPlan.UserScan s = byUser.get(row.uid());
        if (s != null && row.day() >= s.firstDay() && row.day() <= s.lastDay()) {
          Behaviour b = behaviours.requireId(row.behaviourId());
          if (s.types().contains(b)) {
            TrailsRowCodec.decodeRow(row.uid(), row.day(), b, r, out);
          }
        }
      }
      return out;
    } catch (IOException e) {
      throw StorageException.of("scan events", e);
    }
  }
}
