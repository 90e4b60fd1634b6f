package org.casebook.banknote;

import static org.apache.hadoop.hbase.io.compress.Compression.Algorithm.SNAPPY;
import static org.apache.hadoop.hbase.io.compress.Compression.Algorithm.ZSTD;

import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.util.Bytes;
import org.casebook.core.schema.FamilySpec;
import org.casebook.core.schema.SplitPoints;
import org.casebook.core.schema.TableSpec;

/**
 * The tables, in namespace {@code banknote} unless the {@code namespace} setting names another:
 * notes (full records by reversed serial, images in their own family), devices (the same records by
 * device and time, salted), suspects (by branch and day) and batches (each device batch's time
 * windows), the watch list with its hits, the daily settlement's summaries and declarations, and
 * the branches' locations (small: Snappy, one region until HBase splits).
 *
 * <p>Compression: ZSTD on notes and devices (billions of rows: ZSTD took 4.1× less disk than none
 * on the generated records, 12× with their synthetic serial images, and lookups read a few 16 KiB
 * blocks), Snappy on the small suspect and batch tables; figures in docs/SCALING.md.
 */
record BanknoteSchema(
    TableName notes,
    TableName devices,
    TableName suspects,
    TableName batches,
    TableName watch,
    TableName hits,
    TableName settlement,
    TableName branches) {
  static final String DEFAULT_NAMESPACE = "banknote";

  /** notes family: the record; images family: the serial image, read only when asked for. */
  static final byte[] N = Bytes.toBytes("n");

  static final byte[] I = Bytes.toBytes("i");

  static final byte[] D = Bytes.toBytes("d");
  static final byte[] S = Bytes.toBytes("s");
  static final byte[] B = Bytes.toBytes("b");

  /** watch family: an entry's columns; hits family: the note and the entry it matched. */
  static final byte[] W = Bytes.toBytes("w");

  static final byte[] H = Bytes.toBytes("h");

  /** settlement families: a piece's counts; a device's declaration that it delivered its files. */
  static final byte[] P = Bytes.toBytes("p");

  static final byte[] C = Bytes.toBytes("c");

  /** branches family: a branch's location. */
  static final byte[] L = Bytes.toBytes("l");

  /** The one column of the record families. */
  static final byte[] RECORD = BanknoteKeys.COLUMN.encode("r");

  static final byte[] IMAGE = BanknoteKeys.COLUMN.encode("g");

  /**
   * Lookups read a few hundred bytes: small blocks keep the bytes read per lookup low (HBase reads
   * a whole block from disk).
   */
  static final int BLOCK_BYTES = 16 * 1024;

  static BanknoteSchema in(String namespace) {
    return new BanknoteSchema(
        TableName.valueOf(namespace, "notes"),
        TableName.valueOf(namespace, "devices"),
        TableName.valueOf(namespace, "suspects"),
        TableName.valueOf(namespace, "batches"),
        TableName.valueOf(namespace, "watch"),
        TableName.valueOf(namespace, "hits"),
        TableName.valueOf(namespace, "settlement"),
        TableName.valueOf(namespace, "branches"));
  }

  /** Whether these are the default namespace's tables (the ones the descriptor lists). */
  boolean isDefault() {
    return notes.getNamespaceAsString().equals(DEFAULT_NAMESPACE);
  }

  /**
   * The notes table's split points: on the reversed serial's first character, i.e. the serial's
   * last one, so 11 regions: one per digit {@code 0} … {@code 9} and one from {@code A} up. RMB
   * serials end in a digit, each digit about as often (a sorter's bundle of consecutive serials
   * spreads over all ten). US dollar serials end in a letter, as may other foreign notes' and a
   * serial whose last character was unreadable ({@code _}): the letters' region is theirs. RMB
   * never reaches it, but folded into the {@code 9} region a branch that handles many foreign notes
   * would make that region the hot one; the generator's teller machines take US dollars (under 1 %
   * of its notes), so its data reaches the region too ({@code BanknoteSchemaTest}). Other
   * characters go by code point: below {@code 0} (the {@code *} of a US star note) to the {@code 0}
   * region, {@code :} … {@code @} to the {@code 9} one. Each point is the row prefix of the
   * one-character serial, encoded by {@link BanknoteKeys#NOTE} itself.
   */
  static SplitPoints noteSplits() {
    List<byte[]> points = new ArrayList<>();
    for (char c = '1'; c <= '9'; c++) {
      points.add(BanknoteKeys.NOTE.prefix(String.valueOf(c)));
    }
    points.add(BanknoteKeys.NOTE.prefix("A"));
    return SplitPoints.of(points, "11 regions on the serial's last character (0..9, letters)");
  }

  /**
   * The notes table is split as {@link #noteSplits}; the devices table at its {@link
   * BanknoteKeys#DEVICE_BUCKETS} salt buckets, one region each. A device stays in one bucket, so a
   * region's share is that of the devices hashing into it: even once a bank has several devices per
   * bucket (60 generated devices: 15 % at most of 8 regions), lumpy below that (the generator's
   * default 20: one bucket empty until a device hashes to it, the busiest 30 %). Suspects (a sliver
   * of the notes) and batches (a row per device batch) are small and grow by HBase's own splits.
   */
  List<TableSpec> tables() {
    return tables(0);
  }

  /**
   * As {@link #tables()}, every family keeping cells {@code retentionYears} of 365 days (0:
   * forever) after they were stored, so a reading leaves every table at once.
   */
  List<TableSpec> tables(int retentionYears) {
    int ttl = retentionYears == 0 ? FamilySpec.FOREVER : retentionYears * 365 * 86_400;
    return List.of(
        new TableSpec(
            notes,
            List.of(
                FamilySpec.of("n")
                    .withCompression(ZSTD)
                    .withBlockSize(BLOCK_BYTES)
                    .withTtlSeconds(ttl),
                FamilySpec.of("i").withCompression(ZSTD).withTtlSeconds(ttl)),
            noteSplits(),
            BanknoteKeys.NOTE.shape() + "; n:r record, i:g serial image"),
        new TableSpec(
            devices,
            List.of(
                FamilySpec.of("d")
                    .withCompression(ZSTD)
                    .withBlockSize(BLOCK_BYTES)
                    .withTtlSeconds(ttl)),
            SplitPoints.leadingByteBuckets(BanknoteKeys.DEVICE_BUCKETS),
            BanknoteKeys.DEVICE.shape() + "; d:r record"),
        new TableSpec(
            suspects,
            List.of(FamilySpec.of("s").withCompression(SNAPPY).withTtlSeconds(ttl)),
            SplitPoints.none(),
            BanknoteKeys.SUSPECT.shape() + "; s:r record"),
        new TableSpec(
            batches,
            List.of(FamilySpec.of("b").withCompression(SNAPPY).withTtlSeconds(ttl)),
            SplitPoints.none(),
            BanknoteKeys.BATCH.shape()
                + "; b: "
                + BanknoteKeys.BATCH_COLUMN.shape()
                + " -> first and last time"),
        // The list is the bank's, not a reading: retention does not apply to it.
        new TableSpec(
            watch,
            List.of(FamilySpec.of("w").withCompression(SNAPPY)),
            SplitPoints.none(),
            BanknoteKeys.WATCH.shape() + "; w: pattern, denomination, note, by, time"),
        new TableSpec(
            hits,
            List.of(FamilySpec.of("h").withCompression(SNAPPY).withTtlSeconds(ttl)),
            SplitPoints.none(),
            BanknoteKeys.HIT.shape() + "; h:r record, h:p pattern"),
        // A row a piece and a day (about 1/500 of the notes rows), read a branch's day at a time:
        // small and latency-bound like suspects. The declarations age with the counts they close.
        new TableSpec(
            settlement,
            List.of(
                FamilySpec.of("p").withCompression(SNAPPY).withTtlSeconds(ttl),
                FamilySpec.of("c").withCompression(SNAPPY).withTtlSeconds(ttl)),
            SplitPoints.none(),
            BanknoteKeys.SETTLEMENT.shape()
                + "; p:r a piece's counts; "
                + BanknoteKeys.DELIVERED.shape()
                + "; c:f, c:l first and last delivered declaration (cell times)"),
        // The bank's registry of its branches, not a reading: retention does not apply. A row a
        // branch (thousands), read a few rows at a time by the clone checks: small, Snappy.
        new TableSpec(
            branches,
            List.of(FamilySpec.of("l").withCompression(SNAPPY)),
            SplitPoints.none(),
            BanknoteKeys.BRANCH.shape() + "; l:lat, l:lon degrees (double), l:name"));
  }
}
