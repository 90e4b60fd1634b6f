package org.casebook.trails;

import static org.casebook.trails.TrailsSchema.D;
import static org.casebook.trails.TrailsSchema.E;
import static org.casebook.trails.TrailsSchema.H;

import java.io.IOException;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.filter.MultipleColumnPrefixFilter;
import org.apache.hadoop.hbase.util.Bytes;
import org.casebook.core.key.KeyRange;

/**
 * The trails rows as cells, both ways: the Puts of an event in each table (what the Put ingest and
 * the bulk load write, so both store the same cells) and an events row's cells back into events
 * (what every trail read and the MapReduce task decode). Every key goes through {@link TrailsKeys}'
 * layouts.
 *
 * <p>Public for this module's {@code batch} package: Hadoop creates the MapReduce tasks there by
 * class name, so they reach the tables' layout through this class instead of the package-private
 * keys and schema. Everything else reads and writes through {@link TrailsService}.
 */
public final class TrailsRowCodec {
  /** The namespace the system serves ({@code trails}). */
  public static final String DEFAULT_NAMESPACE = TrailsSchema.DEFAULT_NAMESPACE;

  private final TrailsSchema schema;

  private TrailsRowCodec(TrailsSchema schema) {
    this.schema = Objects.requireNonNull(schema, "schema is null");
  }

  /** The rows of the trails tables in {@code namespace}. */
  public static TrailsRowCodec in(String namespace) {
    return new TrailsRowCodec(TrailsSchema.in(namespace));
  }

  static TrailsRowCodec of(TrailsSchema schema) {
    return new TrailsRowCodec(schema);
  }

  public String namespace() {
    return schema.events().getNamespaceAsString();
  }

  /** The events table (seed 000). */
  public TableName events() {
    return schema.events();
  }

  /** The tables an ingest with {@code history} writes: events first. */
  public List<TableName> tables(HistoryTables history) {
    List<TableName> tables = new ArrayList<>(List.of(schema.events()));
    if (history.tall()) {
      tables.add(schema.tall());
    }
    if (history.wide()) {
      tables.add(schema.wide());
    }
    return List.copyOf(tables);
  }

  /** Where an event's rows go: the table, and the row's Put. */
  public interface RowSink {
    void accept(TableName table, Put put) throws IOException;
  }

  /**
   * The rows of {@code e}: its events row, and its tall and wide history rows when {@code history}
   * writes them. Both ingest paths (Puts, bulk load) write these.
   */
  public void rowsOf(Event e, HistoryTables history, RowSink sink) throws IOException {
    int hash = TrailsKeys.recordHash(e);
    sink.accept(schema.events(), eventPut(e, hash));
    if (history.tall() || history.wide()) {
      byte[] json = HistoryCodec.encode(e);
      if (history.tall()) {
        sink.accept(schema.tall(), tallPut(e, hash, json));
      }
      if (history.wide()) {
        sink.accept(schema.wide(), widePut(e, hash, json));
      }
    }
  }

  /*
   * Cells carry the time they were written, not the record's: a user deleted and ingested again
   * must be visible again, and a delete marker hides every cell at or before its own time until a
   * major compaction drops both (cells at the records' own, older times would be lost so).
   */

  /** The events row of {@code e} with its field cells ({@code hash}: its record hash). */
  private static Put eventPut(Event e, int hash) {
    Put put = new Put(TrailsKeys.eventRow(e.uid(), TrailsKeys.epochDay(e.ts()), e.type()));
    for (Map.Entry<String, String> f : e.fields().entrySet()) {
      put.addColumn(
          D, TrailsKeys.eventQualifier(f.getKey(), e.ts(), hash), Bytes.toBytes(f.getValue()));
    }
    for (Map.Entry<String, String> f : e.extras().entrySet()) {
      put.addColumn(
          D,
          TrailsKeys.eventQualifier(TrailsKeys.EXTRA_MARK + f.getKey(), e.ts(), hash),
          Bytes.toBytes(f.getValue()));
    }
    return put;
  }

  /** The tall history row of {@code e}: one row per record. */
  private static Put tallPut(Event e, int hash, byte[] json) {
    return new Put(TrailsKeys.tallRow(e.uid(), e.ts(), hash)).addColumn(H, E, json);
  }

  /** The wide history cell of {@code e} in its user's row. */
  private static Put widePut(Event e, int hash, byte[] json) {
    return new Put(TrailsKeys.wideRow(e.uid()))
        .addColumn(H, TrailsKeys.wideQualifier(e.ts(), hash), json);
  }

  /** The events row of {@code uid}'s first behaviour on {@code day}: where its range starts. */
  public static byte[] firstRow(String uid, LocalDate day) {
    return TrailsKeys.eventRow(uid, TrailsKeys.epochDay(day), Behaviour.LOGIN);
  }

  /** Every events row of {@code uid}, on any day: the key range a user owns. */
  public static KeyRange userRows(String uid) {
    return KeyRange.prefix(TrailsKeys.EVENT_ROW.prefix(uid));
  }

  /** The events rows of {@code uid} from {@code from} to {@code to}, both days included. */
  public static KeyRange userDays(String uid, LocalDate from, LocalDate to) {
    return TrailsKeys.eventDays(uid, TrailsKeys.epochDay(from), TrailsKeys.epochDay(to));
  }

  /** The user of an events row. */
  public static String userOf(byte[] row) {
    return TrailsKeys.eventRowOf(row).uid();
  }

  /**
   * The behaviours of the registry of the trails tables in {@code namespace}: the built-ins and
   * those declared (a standalone MapReduce job's, when no client handed it a snapshot).
   */
  public static Behaviours loadBehaviours(Connection connection, String namespace) {
    return new BehaviourStore(connection, TrailsSchema.in(namespace)).load();
  }

  /**
   * One Get per day from {@code from} to {@code to} and behaviour of {@code behaviours}, every
   * column: seed 000's reader of one user's trail.
   */
  public static List<Get> gets(String uid, LocalDate from, LocalDate to, Behaviours behaviours) {
    int last = TrailsKeys.epochDay(to);
    List<Get> gets = new ArrayList<>();
    for (int day = TrailsKeys.epochDay(from); day <= last; day++) {
      for (Behaviour b : behaviours.all()) {
        gets.add(get(uid, day, b, List.of()));
      }
    }
    return gets;
  }

  /** The Get of one events row, only the columns of {@code fields} (every column when empty). */
  static Get get(String uid, int day, Behaviour b, List<String> fields) {
    Get g = new Get(TrailsKeys.eventRow(uid, day, b)).addFamily(D);
    if (!fields.isEmpty()) {
      g.setFilter(columnPrefixes(fields));
    }
    return g;
  }

  /** The filter that keeps the cells of {@code fields}. */
  static MultipleColumnPrefixFilter columnPrefixes(List<String> fields) {
    return new MultipleColumnPrefixFilter(
        fields.stream().map(TrailsKeys::fieldPrefix).toArray(byte[][]::new));
  }

  /**
   * The events of {@code uid}'s events rows in {@code results} (empty results skipped), their
   * behaviours found in {@code behaviours}.
   */
  public static List<Event> decode(String uid, Result[] results, BehaviourLookup behaviours) {
    List<Event> events = new ArrayList<>();
    for (Result r : results) {
      if (r != null && !r.isEmpty()) {
        TrailsKeys.EventRow row = TrailsKeys.eventRowOf(r.getRow());
        decodeRow(uid, row.day(), behaviours.requireId(row.behaviourId()), r, events);
      }
    }
    return events;
  }

  /**
   * Groups a row's cells by column id into events, in time order: the one place events cells are
   * decoded. Each cell is read in place (no copy of its qualifier), its field found by its encoded
   * prefix; its event is found by binary search over the row's column ids so far (cells come by
   * field, so a later field's ids may fall between earlier ones). A cell of no field of {@code b}
   * is decoded whole: an extra field's (kept as text), or one of a field {@code b} does not have,
   * which still marks its event.
   */
  static void decodeRow(String uid, int day, Behaviour b, Result r, List<Event> out) {
    if (r == null || r.isEmpty()) {
      return;
    }
    Cell[] cells = r.rawCells();
    List<Behaviour.Field> fields = b.fields();
    long[] ids = new long[cells.length]; // the row's column ids, ascending
    String[][] values = new String[cells.length][]; // per id, by field index
    Map<Long, Map<String, String>> extras = null; // per id, when any
    int events = 0;
    for (Cell c : cells) {
      byte[] q = c.getQualifierArray();
      int off = c.getQualifierOffset();
      int len = c.getQualifierLength();
      int field = TrailsKeys.fieldIndex(b, q, off, len);
      TrailsKeys.EventColumn column = field >= 0 ? null : TrailsKeys.eventColumn(q, off, len);
      long id = column == null ? TrailsKeys.columnId(q, off, len) : column.columnId();
      int at = Arrays.binarySearch(ids, 0, events, id);
      if (at < 0) {
        at = -at - 1;
        System.arraycopy(ids, at, ids, at + 1, events - at);
        System.arraycopy(values, at, values, at + 1, events - at);
        ids[at] = id;
        values[at] = new String[fields.size()];
        events++;
      }
      String value = Bytes.toString(c.getValueArray(), c.getValueOffset(), c.getValueLength());
      if (field >= 0) {
        values[at][field] = value;
      } else if (column.field().startsWith(TrailsKeys.EXTRA_MARK)) {
        if (extras == null) {
          extras = new HashMap<>();
        }
        extras
            .computeIfAbsent(id, k -> new TreeMap<>())
            .put(column.field().substring(TrailsKeys.EXTRA_MARK.length()), value);
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
      Map<String, String> extra = extras == null ? null : extras.get(ids[e]);
      out.add(new Event(uid, b, dayStart + (ids[e] >>> 32), ordered, extra));
    }
  }
}
