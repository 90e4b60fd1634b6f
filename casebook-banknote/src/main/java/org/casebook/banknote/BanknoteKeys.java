package org.casebook.banknote;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.List;
import org.casebook.core.key.KeyLayout;
import org.casebook.core.key.KeyLayout.PartType;

/**
 * Row keys and qualifiers of the banknote tables, each a declared {@link KeyLayout}; the store
 * builds and reads every key through these.
 *
 * <pre>
 * banknote:notes     reversed serial | MAX - time | device | source | record     a note's history
 * banknote:devices   salt(device) | device | time | source | record              what a device read
 * banknote:suspects  branch | day | time | device | source | record             suspect notes
 * banknote:batches   batch | device;  column: source | first record            a batch's windows
 * banknote:watch     entry id                                                   the watch list
 * banknote:hits      branch | day | MAX - time | origin | record | entry id     watch-list hits
 * banknote:settlement branch | day | device | source | first record           a piece's counts
 * banknote:settlement branch | day | device                                   delivered declaration
 * banknote:branches  branch                                                     a branch's location
 * </pre>
 *
 * The record's identity (device, source, record number) ends every note key, so a record sent twice
 * lands on the same rows: a retry overwrites itself. The reversed serial leads the notes key (the
 * seed's rule): a sorter reads runs of consecutive serials, whose last characters change fastest,
 * so reversed keys of one run spread over every region.
 */
final class BanknoteKeys {
  /** Salt buckets of the devices table: one device stays in one bucket (one scan per window). */
  static final int DEVICE_BUCKETS = 8;

  /** Width of the origin part: MD5(device, source) truncated. */
  static final int ORIGIN_BYTES = 8;

  static final KeyLayout NOTE =
      KeyLayout.named("notes row")
          .part("serial", PartType.REVERSED_STRING)
          .part("time", PartType.REVERSE_TIMESTAMP)
          .fixed("origin", ORIGIN_BYTES)
          .part("record", PartType.LONG)
          .build();

  static final KeyLayout DEVICE =
      KeyLayout.named("devices row")
          .salt("bucket", DEVICE_BUCKETS, "device")
          .part("device", PartType.STRING)
          .part("time", PartType.LONG)
          .fixed("origin", ORIGIN_BYTES)
          .part("record", PartType.LONG)
          .build();

  static final KeyLayout SUSPECT =
      KeyLayout.named("suspects row")
          .part("branch", PartType.STRING)
          .part("day", PartType.INT)
          .part("time", PartType.LONG)
          .fixed("origin", ORIGIN_BYTES)
          .part("record", PartType.LONG)
          .build();

  static final KeyLayout BATCH =
      KeyLayout.named("batches row")
          .part("batch", PartType.STRING)
          .part("device", PartType.STRING)
          .build();

  static final KeyLayout BATCH_COLUMN =
      KeyLayout.named("batches column")
          .part("source", PartType.STRING)
          .part("first", PartType.LONG)
          .build();

  /** The watch list: one row an entry, so the whole list is one scan of the table. */
  static final KeyLayout WATCH = KeyLayout.named("watch row").part("id", PartType.STRING).build();

  /**
   * A watch-list hit: listed by branch and day, newest first; the note's identity and the entry it
   * matched end the key, so a retried batch rewrites its hits and two entries make two rows.
   */
  static final KeyLayout HIT =
      KeyLayout.named("hits row")
          .part("branch", PartType.STRING)
          .part("day", PartType.INT)
          .part("time", PartType.REVERSE_TIMESTAMP)
          .fixed("origin", ORIGIN_BYTES)
          .part("record", PartType.LONG)
          .part("entry", PartType.STRING)
          .build();

  /**
   * A settlement summary: the counts of one piece's notes (a collector batch or FSN piece) of one
   * branch's day, keyed by the file and the first record the piece holds of that day, so a retried
   * piece rewrites its own row; {@code range(branch, day)} is the day's whole settlement.
   */
  static final KeyLayout SETTLEMENT =
      KeyLayout.named("settlement row")
          .part("branch", PartType.STRING)
          .part("day", PartType.INT)
          .part("device", PartType.STRING)
          .part("source", PartType.STRING)
          .part("first", PartType.LONG)
          .build();

  /**
   * A device's declaration that it delivered its files of a branch's day: the prefix of that
   * device's summary rows, so it sorts before them in the day's one scan.
   */
  static final KeyLayout DELIVERED =
      KeyLayout.named("delivered row")
          .part("branch", PartType.STRING)
          .part("day", PartType.INT)
          .part("device", PartType.STRING)
          .build();

  /** A branch's location: one row a branch, so the registry is one scan of the table. */
  static final KeyLayout BRANCH =
      KeyLayout.named("branches row").part("branch", PartType.STRING).build();

  static final KeyLayout COLUMN = KeyLayout.named("column").part("name", PartType.STRING).build();

  /**
   * The key the seed warns against, serial first: never stored, kept to show ({@code
   * BanknoteKeysTest}) how it concentrates a sorter's writes.
   */
  static final KeyLayout SERIAL_FIRST =
      KeyLayout.named("serial-first row (not stored)")
          .part("serial", PartType.STRING)
          .part("time", PartType.REVERSE_TIMESTAMP)
          .fixed("origin", ORIGIN_BYTES)
          .part("record", PartType.LONG)
          .build();

  /** Every stored layout, for the descriptor. */
  static final List<KeyLayout> ALL =
      List.of(
          NOTE,
          DEVICE,
          SUSPECT,
          BATCH,
          BATCH_COLUMN,
          WATCH,
          HIT,
          SETTLEMENT,
          DELIVERED,
          BRANCH,
          COLUMN);

  // One cursor scope per listing: a cursor of one is refused by another.
  static final String HISTORY_SCOPE = "banknote.history";
  static final String DEVICE_SCOPE = "banknote.device";
  static final String BATCH_SCOPE = "banknote.batch";
  static final String SUSPECT_SCOPE = "banknote.suspects";
  static final String WATCH_SCOPE = "banknote.watch";
  static final String HIT_SCOPE = "banknote.hits";
  static final String BRANCH_SCOPE = "banknote.branches";
  static final String SWEEP_SCOPE = "banknote.clone-sweep";

  private BanknoteKeys() {}

  /** The first 8 bytes of MD5(device UTF-8, 0x00, source UTF-8): the record's file, as bytes. */
  static byte[] origin(String device, String source) {
    MessageDigest md5;
    try {
      md5 = MessageDigest.getInstance("MD5");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JVM has MD5", e);
    }
    md5.update(device.getBytes(StandardCharsets.UTF_8));
    md5.update((byte) 0);
    md5.update(source.getBytes(StandardCharsets.UTF_8));
    return Arrays.copyOf(md5.digest(), ORIGIN_BYTES);
  }

  static byte[] note(Note n) {
    return note(n, origin(n.device(), n.source()));
  }

  /** The notes key of {@code n} whose {@link #origin} is {@code origin} (computed once a file). */
  static byte[] note(Note n, byte[] origin) {
    return NOTE.encode(n.serial(), n.time().toEpochMilli(), origin, n.record());
  }

  static byte[] serialFirst(Note n) {
    return SERIAL_FIRST.encode(
        n.serial(), n.time().toEpochMilli(), origin(n.device(), n.source()), n.record());
  }

  static byte[] device(Note n) {
    return device(n, origin(n.device(), n.source()));
  }

  static byte[] device(Note n, byte[] origin) {
    return DEVICE.encode(n.device(), n.time().toEpochMilli(), origin, n.record());
  }

  static byte[] suspect(Note n, int day) {
    return suspect(n, day, origin(n.device(), n.source()));
  }

  static byte[] suspect(Note n, int day, byte[] origin) {
    return SUSPECT.encode(n.branch(), day, n.time().toEpochMilli(), origin, n.record());
  }

  static byte[] hit(Note n, int day, byte[] origin, String entry) {
    return HIT.encode(n.branch(), day, n.time().toEpochMilli(), origin, n.record(), entry);
  }
}
