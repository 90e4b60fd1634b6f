package org.casebook.bench;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.apache.hadoop.hbase.TableName;
import org.casebook.banknote.Note;
import org.casebook.core.SystemDescriptor;
import org.casebook.core.key.KeyLayout;
import org.casebook.core.key.KeyLayout.PartType;
import org.casebook.core.schema.SplitPoints;
import org.casebook.core.schema.TableSpec;

/**
 * The banknote notes table as {@code bench banknote} measures it, from what the system publishes:
 * its descriptor's {@code notes row} layout and the notes table's split points, and the README's
 * row format (the origin is the first 8 bytes of MD5(device, 0x00, source); {@code n:r} holds the
 * note in the system's binary cell). Beside the stored design, the serial-first key the seed warns
 * against, which is never stored. {@code BanknoteRowsIT} checks these against rows the system
 * wrote.
 */
final class BanknoteRows {
  private static final int ORIGIN_BYTES = 8;

  /** The seed's warning: the serial first, so a sorter's bundle of serials lands in one region. */
  static final KeyLayout SERIAL_FIRST =
      KeyLayout.named("serial-first row (not stored)")
          .part("serial", PartType.STRING)
          .part("time", PartType.REVERSE_TIMESTAMP)
          .fixed("origin", ORIGIN_BYTES)
          .part("record", PartType.LONG)
          .build();

  private final KeyLayout notes;
  private final SplitPoints splits;
  private final String table;

  private BanknoteRows(KeyLayout notes, SplitPoints splits, String table) {
    this.notes = notes;
    this.splits = splits;
    this.table = table;
  }

  /** The notes rows of the system {@code banknote} describes. */
  static BanknoteRows of(SystemDescriptor banknote) {
    KeyLayout layout =
        banknote.keys().stream()
            .filter(k -> k.name().equals("notes row"))
            .findFirst()
            .orElseThrow(() -> new IllegalStateException("banknote declares no 'notes row' key"));
    TableSpec spec =
        banknote.tables().stream()
            .filter(t -> t.name().getQualifierAsString().equals("notes"))
            .findFirst()
            .orElseThrow(() -> new IllegalStateException("banknote declares no notes table"));
    return new BanknoteRows(layout, spec.splits(), spec.name().getQualifierAsString());
  }

  /** The notes table in {@code namespace}. */
  TableName table(String namespace) {
    return TableName.valueOf(namespace, table);
  }

  /** The notes table's split points (11 regions on the serial's last character). */
  SplitPoints splits() {
    return splits;
  }

  /** The notes row key of {@code n}, as stored: led by the reversed serial. */
  byte[] reversed(Note n) {
    return notes.encode(n.serial(), n.time().toEpochMilli(), origin(n), n.record());
  }

  /** The key {@code n} would have with the serial first. */
  static byte[] serialFirst(Note n) {
    return SERIAL_FIRST.encode(n.serial(), n.time().toEpochMilli(), origin(n), n.record());
  }

  /**
   * The bytes of {@code n}'s notes row, key and {@code n:r} value (images have their own family).
   */
  int rowBytes(Note n) {
    return reversed(n).length + recordBytes(n);
  }

  /**
   * The {@code n:r} cell of {@code n}: a format byte, denomination (4), edition (2), kind,
   * operation and verdict (1 each), time and record (8 each), the error codes (a count byte and 4
   * each), then six strings (serial, currency, device, branch, batch, source) as a 2-byte length
   * and UTF-8.
   */
  static int recordBytes(Note n) {
    int strings = 0;
    for (String s :
        List.of(n.serial(), n.currency(), n.device(), n.branch(), n.batch(), n.source())) {
      strings += 2 + s.getBytes(StandardCharsets.UTF_8).length;
    }
    return 1 + 4 + 2 + 3 + 8 + 8 + 1 + 4 * n.errorCodes().size() + strings;
  }

  /** The first 8 bytes of MD5(device UTF-8, 0x00, source UTF-8): a record's file, as bytes. */
  static byte[] origin(Note n) {
    Objects.requireNonNull(n, "n is null");
    MessageDigest md5;
    try {
      md5 = MessageDigest.getInstance("MD5");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JVM has MD5", e);
    }
    md5.update(n.device().getBytes(StandardCharsets.UTF_8));
    md5.update((byte) 0);
    md5.update(n.source().getBytes(StandardCharsets.UTF_8));
    return Arrays.copyOf(md5.digest(), ORIGIN_BYTES);
  }
}
