package org.casebook.trails;

import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.ZoneOffset;
import org.casebook.core.key.Hashing;
import org.casebook.core.key.KeyBuilder;
import org.casebook.core.key.KeyLayout;
import org.casebook.core.key.KeyReader;

/**
 * Keys of the trails tables, all built with the core toolkit.
 *
 * <pre>
 * events        row  reversed uid | epoch day (int) | behaviour id (byte)          (seed 000)
 *               col  field name | millisecond of day (int) | record hash (int)     "field name + column id"
 * history_tall  row  uid | MAX - ts | record hash                                  (seed 004, tall-narrow)
 * history_wide  row  uid;  col  MAX - ts | record hash                             (seed 004, wide-row)
 * </pre>
 *
 * The column id (millisecond of day + a hash of the record) replaces the seed's per-day counter:
 * it is derived from the record itself, so ingesting the same file twice writes the same cells.
 */
final class TrailsKeys {
  static final KeyLayout EVENT_ROW = KeyLayout.named("events row").part("uid", KeyLayout.PartType.REVERSED_STRING)
      .part("day", KeyLayout.PartType.INT).part("behaviour", KeyLayout.PartType.BYTE).build();
  static final KeyLayout TALL_ROW = KeyLayout.named("history_tall row").part("uid", KeyLayout.PartType.STRING)
      .part("ts", KeyLayout.PartType.REVERSE_TIMESTAMP).part("hash", KeyLayout.PartType.INT).build();

  private TrailsKeys() {}

  static int epochDay(long ts) {
    return (int) Math.floorDiv(ts, 86_400_000L);
  }

  static int epochDay(LocalDate date) {
    return (int) date.toEpochDay();
  }

  static LocalDate date(int epochDay) {
    return LocalDate.ofEpochDay(epochDay);
  }

  static long startOfDay(int epochDay) {
    return LocalDate.ofEpochDay(epochDay).atStartOfDay(ZoneOffset.UTC).toInstant().toEpochMilli();
  }

  static byte[] eventRow(String uid, int day, Behaviour b) {
    return KeyBuilder.create().addReversedString(uid).addInt(day).addByte(b.id()).build();
  }

  /** The reversed-uid prefix of all of a user's event rows. */
  static byte[] eventUserPrefix(String uid) {
    return KeyBuilder.create().addReversedString(uid).build();
  }

  /** A stable 32-bit hash of the whole record: the disambiguating half of the column id. */
  static int recordHash(Event e) {
    StringBuilder sb = new StringBuilder().append(e.uid()).append('\n').append(e.type().id()).append('\n').append(e.ts());
    e.fields().forEach((k, v) -> sb.append('\n').append(k).append('=').append(v));
    byte[] md5 = Hashing.md5(sb.toString().getBytes(StandardCharsets.UTF_8));
    return ((md5[0] & 0xFF) << 24) | ((md5[1] & 0xFF) << 16) | ((md5[2] & 0xFF) << 8) | (md5[3] & 0xFF);
  }

  static byte[] fieldPrefix(String field) {
    return KeyBuilder.create().addString(field).build();
  }

  static byte[] eventQualifier(String field, long ts, int hash) {
    return KeyBuilder.create().addString(field).addInt(msOfDay(ts)).addInt(hash).build();
  }

  static int msOfDay(long ts) {
    return (int) Math.floorMod(ts, 86_400_000L);
  }

  /** Field name, millisecond of day and hash of an events qualifier. */
  record EventColumn(String field, int msOfDay, int hash) {}

  static EventColumn eventColumn(byte[] qualifier) {
    KeyReader r = new KeyReader(qualifier);
    return new EventColumn(r.readString(), r.readInt(), r.readInt());
  }

  /** Day and behaviour of an events row whose uid is known. */
  record EventRow(String uid, int day, Behaviour behaviour) {}

  static EventRow eventRowOf(byte[] row) {
    KeyReader r = new KeyReader(row);
    return new EventRow(r.readReversedString(), r.readInt(), Behaviour.byId(r.readByte()));
  }

  static byte[] tallRow(String uid, long ts, int hash) {
    return KeyBuilder.create().addString(uid).addReverseTimestamp(ts).addInt(hash).build();
  }

  static byte[] tallPrefix(String uid) {
    return KeyBuilder.create().addString(uid).build();
  }

  static byte[] tallPrefix(String uid, long ts) {
    return KeyBuilder.create().addString(uid).addReverseTimestamp(ts).build();
  }

  static byte[] wideRow(String uid) {
    return KeyBuilder.create().addString(uid).build();
  }

  static byte[] wideQualifier(long ts, int hash) {
    return KeyBuilder.create().addReverseTimestamp(ts).addInt(hash).build();
  }

  static byte[] wideQualifierPrefix(long ts) {
    return KeyBuilder.create().addReverseTimestamp(ts).build();
  }
}
