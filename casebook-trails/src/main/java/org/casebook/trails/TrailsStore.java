package org.casebook.trails;

import static org.casebook.trails.TrailsSchema.D;
import static org.casebook.trails.TrailsSchema.E;
import static org.casebook.trails.TrailsSchema.H;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.BufferedMutatorParams;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.RetriesExhaustedWithDetailsException;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.ColumnPaginationFilter;
import org.apache.hadoop.hbase.filter.ColumnPrefixFilter;
import org.apache.hadoop.hbase.filter.MultipleColumnPrefixFilter;
import org.apache.hadoop.hbase.util.Bytes;
import java.util.Set;
import org.casebook.core.key.KeyBuilder;
import org.casebook.core.key.KeyRange;
import org.casebook.core.key.KeyReader;

/** Every HBase read and write of the trails tables. */
final class TrailsStore {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final int GET_BATCH = 1000;

  private final Connection connection;
  private final TrailsSchema schema;

  TrailsStore(Connection connection, TrailsSchema schema) {
    this.connection = connection;
    this.schema = schema;
  }

  TrailsSchema schema() {
    return schema;
  }

  /** Buffered writers for one ingest run; failures are collected, then raised by {@link Writers#close()}. */
  final class Writers implements AutoCloseable {
    private final BufferedMutator events;
    private final BufferedMutator tall;
    private final BufferedMutator wide;
    private final List<RetriesExhaustedWithDetailsException> failures = new java.util.concurrent.CopyOnWriteArrayList<>();

    Writers(boolean withTall, boolean withWide) throws IOException {
      events = open(schema.events());
      tall = withTall ? open(schema.tall()) : null;
      wide = withWide ? open(schema.wide()) : null;
    }

    private BufferedMutator open(org.apache.hadoop.hbase.TableName table) throws IOException {
      return connection.getBufferedMutator(new BufferedMutatorParams(table).writeBufferSize(8L << 20)
          .listener((e, m) -> failures.add(e)));
    }

    /** Writes one event to every table; returns the cells written. */
    int write(Event e) throws IOException {
      int hash = TrailsKeys.recordHash(e);
      Put put = new Put(TrailsKeys.eventRow(e.uid(), TrailsKeys.epochDay(e.ts()), e.type()));
      for (Map.Entry<String, String> f : e.fields().entrySet()) {
        put.addColumn(D, TrailsKeys.eventQualifier(f.getKey(), e.ts(), hash), Bytes.toBytes(f.getValue()));
      }
      events.mutate(put);
      int cells = e.fields().size();
      if (tall != null || wide != null) {
        byte[] json = historyValue(e);
        if (tall != null) {
          tall.mutate(new Put(TrailsKeys.tallRow(e.uid(), e.ts(), hash)).addColumn(H, E, json));
          cells++;
        }
        if (wide != null) {
          wide.mutate(new Put(TrailsKeys.wideRow(e.uid())).addColumn(H, TrailsKeys.wideQualifier(e.ts(), hash), json));
          cells++;
        }
      }
      return cells;
    }

    @Override
    public void close() throws IOException {
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
        throw failures.get(0);
      }
      if (first != null) {
        throw first;
      }
    }
  }

  Writers writers(boolean withTall, boolean withWide) {
    try {
      return new Writers(withTall, withWide);
    } catch (IOException e) {
      throw new UncheckedIOException("could not open writers: " + e.getMessage(), e);
    }
  }

  /** The record minus the key parts (uid, ts), as stored in the history tables. */
  static byte[] historyValue(Event e) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("type", e.type().label());
    m.putAll(e.fields());
    try {
      return MAPPER.writeValueAsBytes(m);
    } catch (com.fasterxml.jackson.core.JsonProcessingException ex) {
      throw new IllegalStateException(ex);
    }
  }

  static Event fromHistory(String uid, long ts, byte[] value) {
    try {
      JsonNode n = MAPPER.readTree(value);
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

  /**
   * The seed-000 query: one Get per (user, day, behaviour), only the requested fields' columns
   * ({@code MultipleColumnPrefixFilter}), in batches; events rebuilt per row.
   */
  List<Event> events(List<EventGet> wanted) {
    List<Event> out = new ArrayList<>();
    try (Table t = connection.getTable(schema.events())) {
      for (int from = 0; from < wanted.size(); from += GET_BATCH) {
        List<EventGet> chunk = wanted.subList(from, Math.min(wanted.size(), from + GET_BATCH));
        List<Get> gets = new ArrayList<>(chunk.size());
        for (EventGet w : chunk) {
          gets.add(toGet(w));
        }
        Result[] results = t.get(gets);
        for (int i = 0; i < results.length; i++) {
          decodeRow(chunk.get(i).uid(), chunk.get(i).day(), chunk.get(i).behaviour(), results[i], out);
        }
      }
      return out;
    } catch (IOException e) {
      throw new UncheckedIOException("could not read events: " + e.getMessage(), e);
    }
  }

  /**
   * The range plan: a user's rows for consecutive days are contiguous (reversed uid | day |
   * behaviour), so one bounded Scan reads every behaviour of the range.
   */
  List<Event> eventsByScan(String uid, int firstDay, int lastDay, Set<Behaviour> types, Set<String> fields) {
    byte[] start = KeyBuilder.create().addReversedString(uid).addInt(firstDay).build();
    byte[] stop = KeyBuilder.create().addReversedString(uid).addInt(lastDay + 1).build();
    Scan scan = new Scan().withStartRow(start, true).withStopRow(stop, false).addFamily(D).setCaching(1000);
    if (!fields.isEmpty()) {
      List<byte[]> prefixes = new ArrayList<>();
      for (Behaviour b : types) {
        for (String f : TrailsService.fieldsFor(b, fields)) {
          prefixes.add(TrailsKeys.fieldPrefix(f));
        }
      }
      scan.setFilter(new MultipleColumnPrefixFilter(prefixes.toArray(new byte[0][])));
    }
    List<Event> out = new ArrayList<>();
    try (Table t = connection.getTable(schema.events()); ResultScanner s = t.getScanner(scan)) {
      for (Result r : s) {
        TrailsKeys.EventRow row = TrailsKeys.eventRowOf(r.getRow());
        if (types.contains(row.behaviour())) {
          decodeRow(uid, row.day(), row.behaviour(), r, out);
        }
      }
      return out;
    } catch (IOException e) {
      throw new UncheckedIOException("could not scan events: " + e.getMessage(), e);
    }
  }

  /** One row to fetch and the fields wanted from it (all when empty). */
  record EventGet(String uid, int day, Behaviour behaviour, List<String> fields) {}

  static Get toGet(EventGet w) {
    Get g = new Get(TrailsKeys.eventRow(w.uid(), w.day(), w.behaviour())).addFamily(D);
    if (!w.fields().isEmpty()) {
      byte[][] prefixes = new byte[w.fields().size()][];
      for (int i = 0; i < prefixes.length; i++) {
        prefixes[i] = TrailsKeys.fieldPrefix(w.fields().get(i));
      }
      g.setFilter(new MultipleColumnPrefixFilter(prefixes));
    }
    return g;
  }

  /** Groups a row's cells by column id into events, in time order. */
  static void decodeRow(String uid, int day, Behaviour b, Result r, List<Event> out) {
    if (r == null || r.isEmpty()) {
      return;
    }
    TreeMap<Long, Map<String, String>> byColumnId = new TreeMap<>();
    for (Cell c : r.rawCells()) {
      TrailsKeys.EventColumn col = TrailsKeys.eventColumn(CellUtil.cloneQualifier(c));
      long columnId = ((long) col.msOfDay() << 32) | (col.hash() & 0xFFFFFFFFL);
      byColumnId.computeIfAbsent(columnId, k -> new java.util.HashMap<>()).put(col.field(),
          Bytes.toString(CellUtil.cloneValue(c)));
    }
    long dayStart = TrailsKeys.startOfDay(day);
    byColumnId.forEach((columnId, fields) -> {
      Map<String, String> ordered = new LinkedHashMap<>();
      for (Behaviour.Field f : b.fields()) {
        String v = fields.get(f.name());
        if (v != null) {
          ordered.put(f.name(), v);
        }
      }
      out.add(new Event(uid, b, dayStart + (columnId >>> 32), ordered));
    });
  }

  /** Latest {@code n} records of a user, newest first, from either history design. */
  List<Event> latest(String uid, int n, HistoryLayout layout) {
    try {
      if (layout == HistoryLayout.TALL) {
        Scan scan = KeyRange.prefix(TrailsKeys.tallPrefix(uid)).toScan().setLimit(n).setCaching(Math.min(n, 1000));
        return scanTall(uid, scan);
      }
      try (Table t = connection.getTable(schema.wide())) {
        Result r = t.get(new Get(TrailsKeys.wideRow(uid)).addFamily(H).setFilter(new ColumnPaginationFilter(n, 0)));
        return decodeWide(uid, r.rawCells());
      }
    } catch (IOException e) {
      throw new UncheckedIOException("could not read history: " + e.getMessage(), e);
    }
  }

  /** The records of a user at exactly {@code ts} (usually one). */
  List<Event> at(String uid, long ts, HistoryLayout layout) {
    try {
      if (layout == HistoryLayout.TALL) {
        return scanTall(uid, KeyRange.prefix(TrailsKeys.tallPrefix(uid, ts)).toScan());
      }
      try (Table t = connection.getTable(schema.wide())) {
        Result r = t.get(new Get(TrailsKeys.wideRow(uid)).addFamily(H)
            .setFilter(new ColumnPrefixFilter(TrailsKeys.wideQualifierPrefix(ts))));
        return decodeWide(uid, r.rawCells());
      }
    } catch (IOException e) {
      throw new UncheckedIOException("could not read history: " + e.getMessage(), e);
    }
  }

  /** Every record of a user, newest first, at most {@code limit}. */
  List<Event> all(String uid, int limit, HistoryLayout layout) {
    try {
      if (layout == HistoryLayout.TALL) {
        return scanTall(uid, KeyRange.prefix(TrailsKeys.tallPrefix(uid)).toScan().setLimit(limit).setCaching(1000));
      }
      byte[] row = TrailsKeys.wideRow(uid);
      // One row, read in batches of columns so a very wide row never has to fit one response.
      Scan scan = new Scan().withStartRow(row, true).withStopRow(row, true).addFamily(H).setBatch(1000)
          .setAllowPartialResults(true);
      List<Event> out = new ArrayList<>();
      try (Table t = connection.getTable(schema.wide()); ResultScanner s = t.getScanner(scan)) {
        for (Result r : s) {
          out.addAll(decodeWide(uid, r.rawCells()));
          if (out.size() >= limit) {
            return out.subList(0, limit);
          }
        }
      }
      return out;
    } catch (IOException e) {
      throw new UncheckedIOException("could not read history: " + e.getMessage(), e);
    }
  }

  private List<Event> scanTall(String uid, Scan scan) throws IOException {
    List<Event> out = new ArrayList<>();
    try (Table t = connection.getTable(schema.tall()); ResultScanner s = t.getScanner(scan.addColumn(H, E))) {
      for (Result r : s) {
        KeyReader k = new KeyReader(r.getRow());
        k.skipBytes();
        out.add(fromHistory(uid, k.readReverseTimestamp(), r.getValue(H, E)));
      }
    }
    return out;
  }

  private static List<Event> decodeWide(String uid, Cell[] cells) {
    List<Event> out = new ArrayList<>(cells.length);
    for (Cell c : cells) {
      long ts = new KeyReader(CellUtil.cloneQualifier(c)).readReverseTimestamp();
      out.add(fromHistory(uid, ts, CellUtil.cloneValue(c)));
    }
    return out;
  }
}
