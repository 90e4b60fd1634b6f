package org.casebook.trails;

import static org.casebook.trails.TrailsSchema.D;
import static org.casebook.trails.TrailsSchema.E;
import static org.casebook.trails.TrailsSchema.H;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.BufferedMutatorParams;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.RetriesExhaustedWithDetailsException;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.ColumnPaginationFilter;
import org.apache.hadoop.hbase.filter.ColumnPrefixFilter;
import org.apache.hadoop.hbase.filter.Filter;
import org.apache.hadoop.hbase.filter.FilterList;
import org.apache.hadoop.hbase.filter.MultiRowRangeFilter;
import org.apache.hadoop.hbase.filter.MultipleColumnPrefixFilter;
import org.apache.hadoop.hbase.util.Bytes;
import org.casebook.core.Futures;
import org.casebook.core.Json;
import org.casebook.core.StorageException;
import org.casebook.core.key.KeyBuilder;
import org.casebook.core.key.KeyRange;
import org.casebook.core.page.Cursors;
import org.casebook.core.page.Page;
import org.casebook.core.page.PageRequest;

/**
 * Every HBase read and write of the trails tables; every key goes through {@link TrailsKeys}'
 * layouts.
 */
final class TrailsStore {
  private static final int GET_BATCH = 1000;

  private final Connection connection;
  private final TrailsSchema schema;

  /**
   * The platform's shared pool: the per-region scans of a multi-user query run side by side on it.
   */
  private final ExecutorService sideWork;

  TrailsStore(Connection connection, TrailsSchema schema, ExecutorService sideWork) {
    this.connection = connection;
    this.schema = schema;
    this.sideWork = sideWork;
  }

  TrailsSchema schema() {
    return schema;
  }

  /**
   * Buffered writers for one ingest run; failures are collected, then raised by {@link
   * Writers#close()}.
   */
  final class Writers implements AutoCloseable {
    private final BufferedMutator events;
    private final BufferedMutator tall;
    private final BufferedMutator wide;
    private final List<RetriesExhaustedWithDetailsException> failures =
        new CopyOnWriteArrayList<>();

    private final TrailsService.History history;

    private Writers(TrailsService.History history) throws IOException {
      this.history = history;
      events = open(schema.events());
      tall = history.tall() ? open(schema.tall()) : null;
      wide = history.wide() ? open(schema.wide()) : null;
    }

    private BufferedMutator open(TableName table) throws IOException {
      return connection.getBufferedMutator(
          new BufferedMutatorParams(table)
              .writeBufferSize(8L << 20)
              .listener((e, m) -> failures.add(e)));
    }

    /** Writes one event to every table; returns the cells written. */
    int write(Event e) {
      int[] cells = {0};
      try {
        rowsOf(
            schema,
            e,
            history,
            (table, put) -> {
              BufferedMutator m =
                  table.equals(schema.events())
                      ? events
                      : table.equals(schema.tall()) ? tall : wide;
              m.mutate(put);
              cells[0] += put.size();
            });
      } catch (IOException ex) {
        throw StorageException.of("write events", ex);
      }
      return cells[0];
    }

    /** Flushes and closes every writer; the first failure (a rejected mutation first) is raised. */
    @Override
    public void close() {
      IOException first = null;
      for (BufferedMutator m : new BufferedMutator[] {events, tall, wide}) {
        if (m != null) {
          try {
            m.close();
          } catch (IOException e) {
            first = first == null ? e : first;
          }
        }
      }
      if (!failures.isEmpty()) {
        throw StorageException.of("write events", failures.get(0));
      }
      if (first != null) {
        throw StorageException.of("flush events", first);
      }
    }
  }

  Writers writers(TrailsService.History history) {
    try {
      return new Writers(history);
    } catch (IOException e) {
      throw StorageException.of("open the trails writers", e);
    }
  }

  /** Where an event's rows go: the table, and the row's Put. */
  interface RowSink {
    void accept(TableName table, Put put) throws IOException;
  }

  /**
   * The rows of {@code e} in {@code schema}'s tables: its events row, and its tall and wide history
   * rows when {@code history} writes them. Both ingest paths (Puts, bulk load) write these.
   */
  static void rowsOf(TrailsSchema schema, Event e, TrailsService.History history, RowSink sink)
      throws IOException {
    int hash = TrailsKeys.recordHash(e);
    sink.accept(schema.events(), eventPut(e, hash));
    if (history.tall() || history.wide()) {
      byte[] json = historyValue(e);
      if (history.tall()) {
        sink.accept(schema.tall(), tallPut(e, hash, json));
      }
      if (history.wide()) {
        sink.accept(schema.wide(), widePut(e, hash, json));
      }
    }
  }

  /** The events row of {@code e} with its field cells ({@code hash}: its record hash). */
  private static Put eventPut(Event e, int hash) {
    Put put = new Put(TrailsKeys.eventRow(e.uid(), TrailsKeys.epochDay(e.ts()), e.type()));
    for (Map.Entry<String, String> f : e.fields().entrySet()) {
      put.addColumn(
          D, TrailsKeys.eventQualifier(f.getKey(), e.ts(), hash), Bytes.toBytes(f.getValue()));
    }
    return put;
  }

  /** The tall history row of {@code e}; {@code json} is its {@link #historyValue}. */
  private static Put tallPut(Event e, int hash, byte[] json) {
    return new Put(TrailsKeys.tallRow(e.uid(), e.ts(), hash)).addColumn(H, E, json);
  }

  /** The wide history cell of {@code e} in its user's row. */
  private static Put widePut(Event e, int hash, byte[] json) {
    return new Put(TrailsKeys.wideRow(e.uid()))
        .addColumn(H, TrailsKeys.wideQualifier(e.ts(), hash), json);
  }

  /** The record minus the key parts (uid, ts), as stored in the history tables. */
  static byte[] historyValue(Event e) {
    ObjectNode n = Json.mapper().createObjectNode().put("type", e.type().label());
    e.fields().forEach(n::put);
    return Json.writeBytes(n);
  }

  static Event fromHistory(String uid, long ts, byte[] value) {
    try {
      JsonNode n = Json.mapper().readTree(value);
      Behaviour b = Behaviour.byLabel(n.get("type").asText()).orElseThrow();
      Map<String, String> fields = new LinkedHashMap<>();
      for (Behaviour.Field f : b.fields()) {
        JsonNode v = n.get(f.name());
        if (v != null) {
          fields.put(f.name(), v.asText());
        }
      }
      return new Event(uid, b, ts, fields);
    } catch (IOException | RuntimeException e) {
      throw new IllegalStateException("corrupt history value for " + uid + " at " + ts, e);
    }
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
        Result[] results = t.get(chunk.stream().map(TrailsStore::toGet).toList());
        for (int i = 0; i < results.length; i++) {
          decodeRow(
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
      scan.setFilter(columnPrefixes(s.fields()));
    }
    List<Event> out = new ArrayList<>();
    try (Table t = connection.getTable(schema.events());
        ResultScanner rs = t.getScanner(scan)) {
      for (Result r : rs) {
        TrailsKeys.EventRow row = TrailsKeys.eventRowOf(r.getRow());
        if (s.types().contains(row.behaviour())) {
          decodeRow(s.uid(), row.day(), row.behaviour(), r, out);
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
      filter = new FilterList(FilterList.Operator.MUST_PASS_ALL, filter, columnPrefixes(fields));
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
        if (s != null
            && row.day() >= s.firstDay()
            && row.day() <= s.lastDay()
            && s.types().contains(row.behaviour())) {
          decodeRow(row.uid(), row.day(), row.behaviour(), r, out);
        }
      }
      return out;
    } catch (IOException e) {
      throw StorageException.of("scan events", e);
    }
  }

  /** The Get of one planned row (also the MapReduce reader's). */
  static Get toGet(TrailPlan.RowGet w) {
    Get g = new Get(TrailsKeys.eventRow(w.uid(), w.day(), w.behaviour())).addFamily(D);
    if (!w.fields().isEmpty()) {
      g.setFilter(columnPrefixes(w.fields()));
    }
    return g;
  }

  private static MultipleColumnPrefixFilter columnPrefixes(List<String> fields) {
    return new MultipleColumnPrefixFilter(
        fields.stream().map(TrailsKeys::fieldPrefix).toArray(byte[][]::new));
  }

  /**
   * Groups a row's cells by column id into events, in time order: the one place events cells are
   * decoded. Each cell is read in place (no copy of its qualifier), its field found by its encoded
   * prefix; its event is found by binary search over the row's column ids so far (cells come by
   * field, so a later field's ids may fall between earlier ones).
   */
  static void decodeRow(String uid, int day, Behaviour b, Result r, List<Event> out) {
    if (r == null || r.isEmpty()) {
      return;
    }
    Cell[] cells = r.rawCells();
    List<Behaviour.Field> fields = b.fields();
    long[] ids = new long[cells.length]; // the row's column ids, ascending
    String[][] values = new String[cells.length][]; // per id, by field index
    int events = 0;
    for (Cell c : cells) {
      byte[] q = c.getQualifierArray();
      int off = c.getQualifierOffset();
      int len = c.getQualifierLength();
      int field = TrailsKeys.fieldIndex(b, q, off, len);
      // A field b does not have still marks an event (decoding it checks the qualifier's form).
      long id =
          field >= 0
              ? TrailsKeys.columnId(q, off, len)
              : TrailsKeys.eventColumn(q, off, len).columnId();
      int at = Arrays.binarySearch(ids, 0, events, id);
      if (at < 0) {
        at = -at - 1;
        System.arraycopy(ids, at, ids, at + 1, events - at);
        System.arraycopy(values, at, values, at + 1, events - at);
        ids[at] = id;
        values[at] = new String[fields.size()];
        events++;
      }
      if (field >= 0) {
        values[at][field] =
            Bytes.toString(c.getValueArray(), c.getValueOffset(), c.getValueLength());
      }
    }
    long dayStart = TrailsKeys.startOfDay(day);
    for (int e = 0; e < events; e++) {
      Map<String, String> ordered = new LinkedHashMap<>();
      for (int f = 0; f < fields.size(); f++) {
        if (values[e][f] != null) {
          ordered.put(fields.get(f).name(), values[e][f]);
        }
      }
      out.add(new Event(uid, b, dayStart + (ids[e] >>> 32), ordered));
    }
  }

  /** An event and where it sits in a history design (for the next page's cursor). */
  private record Positioned(Event event, TrailsKeys.Position position) {}

  /** One page of a user's records, newest first, from either history design. */
  Page<Event> latest(String uid, PageRequest page, HistoryLayout layout) {
    String scope = "trails.latest." + layout.name().toLowerCase(java.util.Locale.ROOT);
    Optional<TrailsKeys.Position> after =
        page.cursor()
            .map(
                c ->
                    Cursors.decode(
                        scope,
                        c,
                        r -> new TrailsKeys.Position(r.readReverseTimestamp(), r.readInt())));
    List<Positioned> fetched;
    try {
      if (layout == HistoryLayout.TALL) {
        KeyRange user = TrailsKeys.TALL_ROW.range(uid);
        byte[] start =
            after
                .map(p -> KeyRange.successorOf(TrailsKeys.tallRow(uid, p.ts(), p.hash())))
                .orElse(user.start());
        Scan scan =
            KeyRange.between(start, user.stop())
                .toScan()
                .setLimit(page.fetchSize())
                .setCaching(page.fetchSize());
        fetched = scanTall(uid, scan);
      } else {
        ColumnPaginationFilter filter =
            after
                .map(
                    p ->
                        new ColumnPaginationFilter(
                            page.fetchSize(),
                            KeyRange.successorOf(TrailsKeys.wideQualifier(p.ts(), p.hash()))))
                .orElseGet(() -> new ColumnPaginationFilter(page.fetchSize(), 0));
        fetched = getWide(uid, new Get(TrailsKeys.wideRow(uid)).addFamily(H).setFilter(filter));
      }
    } catch (IOException e) {
      throw StorageException.of("read the history of a user", e);
    }
    return Page.of(
            fetched,
            page.limit(),
            p ->
                Cursors.encode(
                    scope,
                    KeyBuilder.create()
                        .addReverseTimestamp(p.position().ts())
                        .addInt(p.position().hash())
                        .build()))
        .map(Positioned::event);
  }

  /** The records of a user at exactly {@code ts} (usually one). */
  List<Event> at(String uid, long ts, HistoryLayout layout) {
    try {
      if (layout == HistoryLayout.TALL) {
        return events(scanTall(uid, TrailsKeys.TALL_ROW.range(uid, ts).toScan()));
      }
      return events(
          getWide(
              uid,
              new Get(TrailsKeys.wideRow(uid))
                  .addFamily(H)
                  .setFilter(new ColumnPrefixFilter(TrailsKeys.WIDE_COLUMN.prefix(ts)))));
    } catch (IOException e) {
      throw StorageException.of("read the history of a user", e);
    }
  }

  /** Every record of a user, newest first, at most {@code limit}. */
  List<Event> all(String uid, int limit, HistoryLayout layout) {
    try {
      if (layout == HistoryLayout.TALL) {
        return events(
            scanTall(
                uid, TrailsKeys.TALL_ROW.range(uid).toScan().setLimit(limit).setCaching(1000)));
      }
      byte[] row = TrailsKeys.wideRow(uid);
      // One row, read in batches of columns so a very wide row never has to fit one response.
      Scan scan =
          new Scan()
              .withStartRow(row, true)
              .withStopRow(row, true)
              .addFamily(H)
              .setBatch(1000)
              .setAllowPartialResults(true);
      List<Event> out = new ArrayList<>();
      try (Table t = connection.getTable(schema.wide());
          ResultScanner s = t.getScanner(scan)) {
        for (Result r : s) {
          out.addAll(events(decodeWide(uid, r.rawCells())));
          if (out.size() >= limit) {
            return out.subList(0, limit);
          }
        }
      }
      return out;
    } catch (IOException e) {
      throw StorageException.of("read the history of a user", e);
    }
  }

  private static List<Event> events(List<Positioned> positioned) {
    return positioned.stream().map(Positioned::event).toList();
  }

  private List<Positioned> scanTall(String uid, Scan scan) throws IOException {
    List<Positioned> out = new ArrayList<>();
    try (Table t = connection.getTable(schema.tall());
        ResultScanner s = t.getScanner(scan.addColumn(H, E).setReadType(Scan.ReadType.PREAD))) {
      for (Result r : s) {
        TrailsKeys.Position p = TrailsKeys.tallPosition(r.getRow());
        out.add(new Positioned(fromHistory(uid, p.ts(), r.getValue(H, E)), p));
      }
    }
    return out;
  }

  private List<Positioned> getWide(String uid, Get get) throws IOException {
    try (Table t = connection.getTable(schema.wide())) {
      return decodeWide(uid, t.get(get).rawCells());
    }
  }

  private static List<Positioned> decodeWide(String uid, Cell[] cells) {
    List<Positioned> out = new ArrayList<>(cells == null ? 0 : cells.length);
    if (cells != null) {
      for (Cell c : cells) {
        TrailsKeys.Position p = TrailsKeys.widePosition(CellUtil.cloneQualifier(c));
        out.add(new Positioned(fromHistory(uid, p.ts(), CellUtil.cloneValue(c)), p));
      }
    }
    return out;
  }
}
