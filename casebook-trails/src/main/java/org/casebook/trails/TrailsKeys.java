package org.casebook.trails;

import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import org.casebook.core.key.Hashing;
import org.casebook.core.key.KeyLayout;
import org.casebook.core.key.KeyLayout.PartType;
import org.casebook.core.key.KeyRange;

/**
 * Keys of the trails tables: every row key and qualifier is built and read through one of the
 * layouts below (listed in the system descriptor, checked by {@code TrailsKeysTest}).
 *
 * <pre>
 * events        row  reversed uid | epoch day (int) | behaviour id (byte)          (seed 000)
 *               col  field name | millisecond of day (int) | record hash (int)     "field name + column id"
 * history_tall  row  uid | MAX - ts | record hash                                  (seed 004, tall-narrow)
 * history_wide  row  uid;  col  MAX - ts | record hash                             (seed 004, wide-row)
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
  static final List<KeyLayout> ALL =
      List.of(EVENT_ROW, EVENT_COLUMN, TALL_ROW, WIDE_ROW, WIDE_COLUMN);

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

  /** Day and behaviour of an events row. */
  record EventRow(String uid, int day, Behaviour behaviour) {}

  static EventRow eventRowOf(byte[] row) {
    KeyLayout.Key k = EVENT_ROW.decode(row);
    return new EventRow(k.string("uid"), k.integer("day"), Behaviour.byId(k.integer("behaviour")));
  }

  static byte[] eventQualifier(String field, long ts, int hash) {
    return EVENT_COLUMN.encode(field, msOfDay(ts), hash);
  }

  /** The qualifier prefix of every cell of one field. */
  static byte[] fieldPrefix(String field) {
    return EVENT_COLUMN.prefix(field);
  }

  /** Field name, millisecond of day and hash of an events qualifier. */
  record EventColumn(String field, int msOfDay, int hash) {}

  static EventColumn eventColumn(byte[] qualifier) {
    KeyLayout.Key k = EVENT_COLUMN.decode(qualifier);
    return new EventColumn(k.string("field"), k.integer("msOfDay"), k.integer("hash"));
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
