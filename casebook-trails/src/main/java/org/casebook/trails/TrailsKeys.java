package org.casebook.trails;

import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import org.casebook.core.key.Hashing;
import org.casebook.core.key.KeyLayout;
import org.casebook.core.key.KeyLayout.PartType;
import org.casebook.core.key.KeyRange;
import org.casebook.core.key.KeyReader;

/**
 * Keys of the trails tables: every row key and qualifier is built and read through one of the
 * layouts below (listed in the system descriptor, checked by {@code TrailsKeysTest}).
 *
 * <pre>
 * events        row  reversed uid | epoch day (int) | behaviour id (byte)          (seed 000)
 *               col  field name | millisecond of day (int) | record hash (int)     "field name + column id"
 * history_tall  row  uid | MAX - ts | record hash                                  (seed 004, tall-narrow)
 * history_wide  row  uid;  col  MAX - ts | record hash                             (seed 004, wide-row)
 * behaviours    row  name;  col (of the "_ids" row)  id (byte)                     (the registry)
 * </pre>
 *
 * The column id (millisecond of day + a hash of the record) replaces the seed's per-day counter: it
 * is derived from the record itself, so ingesting the same file twice writes the same cells.
 */
final class TrailsKeys {
  static final KeyLayout EVENT_ROW =
      KeyLayout.named("events row")
          .part("uid", PartType.REVERSED_STRING)
          .part("day", PartType.INT)
          .part("behaviour", PartType.BYTE)
          .build();
  static final KeyLayout EVENT_COLUMN =
      KeyLayout.named("events column")
          .part("field", PartType.STRING)
          .part("msOfDay", PartType.INT)
          .part("hash", PartType.INT)
          .build();
  static final KeyLayout TALL_ROW =
      KeyLayout.named("history_tall row")
          .part("uid", PartType.STRING)
          .part("ts", PartType.REVERSE_TIMESTAMP)
          .part("hash", PartType.INT)
          .build();
  static final KeyLayout WIDE_ROW =
      KeyLayout.named("history_wide row").part("uid", PartType.STRING).build();
  static final KeyLayout WIDE_COLUMN =
      KeyLayout.named("history_wide column")
          .part("ts", PartType.REVERSE_TIMESTAMP)
          .part("hash", PartType.INT)
          .build();
  static final KeyLayout REGISTRY_ROW =
      KeyLayout.named("behaviours row").part("name", PartType.STRING).build();
  static final KeyLayout REGISTRY_ID_COLUMN =
      KeyLayout.named("behaviours id column").part("id", PartType.BYTE).build();
  static final List<KeyLayout> ALL =
      List.of(
          EVENT_ROW,
          EVENT_COLUMN,
          TALL_ROW,
          WIDE_ROW,
          WIDE_COLUMN,
          REGISTRY_ROW,
          REGISTRY_ID_COLUMN);

  /**
   * The registry row whose columns claim ids ({@link #REGISTRY_ID_COLUMN} → the claiming name): a
   * name no behaviour can take (names start with a letter).
   */
  static final String IDS_ROW_NAME = "_ids";

  /**
   * What the field part of an events qualifier starts with when the cell holds an extra field (one
   * the behaviour does not declare): no declared field name starts so, so the two never meet.
   */
  static final String EXTRA_MARK = "+";

  private TrailsKeys() {}

  static int epochDay(long ts) {
    return Math.toIntExact(Math.floorDiv(ts, 86_400_000L));
  }

  static int epochDay(LocalDate date) {
    return Math.toIntExact(date.toEpochDay());
  }

  static LocalDate date(int epochDay) {
    return LocalDate.ofEpochDay(epochDay);
  }

  static long startOfDay(int epochDay) {
    return LocalDate.ofEpochDay(epochDay).atStartOfDay(ZoneOffset.UTC).toInstant().toEpochMilli();
  }

  static int msOfDay(long ts) {
    return (int) Math.floorMod(ts, 86_400_000L);
  }

  /** A stable 32-bit hash of the whole record: the disambiguating half of the column id. */
  static int recordHash(Event e) {
    StringBuilder sb =
        new StringBuilder()
            .append(e.uid())
            .append('\n')
            .append(e.type().id())
            .append('\n')
            .append(e.ts());
    e.fields().forEach((k, v) -> sb.append('\n').append(k).append('=').append(v));
    // Only records with extras hash them, so every record stored before extras keeps its hash.
    e.extras()
        .forEach((k, v) -> sb.append('\n').append(EXTRA_MARK).append(k).append('=').append(v));
    byte[] md5 = Hashing.md5(sb.toString().getBytes(StandardCharsets.UTF_8));
    return ((md5[0] & 0xFF) << 24)
        | ((md5[1] & 0xFF) << 16)
        | ((md5[2] & 0xFF) << 8)
        | (md5[3] & 0xFF);
  }

  static byte[] eventRow(String uid, int day, Behaviour b) {
    return EVENT_ROW.encode(uid, day, b.id());
  }

  /**
   * Every behaviour row of a user from {@code firstDay} to {@code lastDay}, both included:
   * contiguous.
   */
  static KeyRange eventDays(String uid, int firstDay, int lastDay) {
    return KeyRange.between(EVENT_ROW.prefix(uid, firstDay), EVENT_ROW.prefix(uid, lastDay + 1));
  }

  /** Day and behaviour id of an events row. */
  record EventRow(String uid, int day, int behaviourId) {}

  static EventRow eventRowOf(byte[] row) {
    KeyLayout.Key k = EVENT_ROW.decode(row);
    return new EventRow(k.string("uid"), k.integer("day"), k.integer("behaviour"));
  }

  static byte[] eventQualifier(String field, long ts, int hash) {
    return EVENT_COLUMN.encode(field, msOfDay(ts), hash);
  }

  /** The qualifier prefix of every cell of one field. */
  static byte[] fieldPrefix(String field) {
    return EVENT_COLUMN.prefix(field);
  }

  /** Field name, millisecond of day and hash of an events qualifier. */
  record EventColumn(String field, int msOfDay, int hash) {
    /** As {@link #columnId(byte[], int, int)}. */
    long columnId() {
      return TrailsKeys.columnId(msOfDay, hash);
    }
  }

  static EventColumn eventColumn(byte[] qualifier) {
    return eventColumn(qualifier, 0, qualifier.length);
  }

  static EventColumn eventColumn(byte[] qualifier, int offset, int length) {
    KeyLayout.Key k = EVENT_COLUMN.decode(qualifier, offset, length);
    return new EventColumn(k.string("field"), k.integer("msOfDay"), k.integer("hash"));
  }

  /**
   * The index in {@code b.fields()} of the field of an events qualifier that is well formed (one of
   * {@code b}'s field prefixes followed by the column id's 8 bytes), or -1: a field {@code b} does
   * not have (an extra), or a malformed qualifier; {@link #eventColumn} then decodes it or says
   * what is wrong.
   */
  static int fieldIndex(Behaviour b, byte[] qualifier, int offset, int length) {
    return b.fieldIndex(qualifier, offset, length);
  }

  /**
   * The column id of a qualifier {@link #fieldIndex} accepted: millisecond of day in the high half,
   * record hash (as unsigned) in the low half, so that ids order as (millisecond, hash).
   */
  static long columnId(byte[] qualifier, int offset, int length) {
    // The layout's last two parts, read as it writes them.
    KeyReader r = new KeyReader(qualifier, offset + length - 8, 8);
    return columnId(r.readInt(), r.readInt());
  }

  private static long columnId(int msOfDay, int hash) {
    return ((long) msOfDay << 32) | (hash & 0xFFFFFFFFL);
  }

  static byte[] tallRow(String uid, long ts, int hash) {
    return TALL_ROW.encode(uid, ts, hash);
  }

  /** Time and hash of a history position (a tall row's tail, a wide qualifier). */
  record Position(long ts, int hash) {}

  static Position tallPosition(byte[] row) {
    KeyLayout.Key k = TALL_ROW.decode(row);
    return new Position(k.number("ts"), k.integer("hash"));
  }

  static byte[] wideRow(String uid) {
    return WIDE_ROW.encode(uid);
  }

  static byte[] wideQualifier(long ts, int hash) {
    return WIDE_COLUMN.encode(ts, hash);
  }

  static Position widePosition(byte[] qualifier) {
    KeyLayout.Key k = WIDE_COLUMN.decode(qualifier);
    return new Position(k.number("ts"), k.integer("hash"));
  }
}
