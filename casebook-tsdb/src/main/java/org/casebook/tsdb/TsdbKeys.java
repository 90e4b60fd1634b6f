package org.casebook.tsdb;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import org.apache.hadoop.hbase.util.Bytes;
import org.casebook.core.key.Hashing;
import org.casebook.core.key.KeyBuilder;
import org.casebook.core.key.KeyLayout;
import org.casebook.core.key.KeyLayout.PartType;
import org.casebook.core.key.KeyRange;

/**
 * Row keys of the time-series tables, each a declared {@link KeyLayout}; every key is built and
 * read here: the uid rows, and a data row's salt bucket, metric id, base hour and tag ids.
 *
 * <pre>
 * uid   row 0x00 | kind                 the next id of a kind (an Increment counter)
 *       row 0x01 | kind | name          name → id (forward)
 *       row 0x02 | kind | id            id → name (reverse)
 * data  row [salt] | metric id | hour | tagk id tagv id …   one row per series and hour,
 *                                                           one column per point (or one
 *                                                           compacted cell)
 * series row 0x00 | metric id                  the metric's series are all indexed (id 0: since
 *                                              when the index exists); hours rolled up
 *        row 0x01 | metric id | tagk id tagv id …   one row per series (its tsuid)
 * rollup row [salt] | metric id | day | tagk id tagv id …   one row per series and day, one cell:
 *                                                           each hour's count, sum, min, max
 * </pre>
 *
 * Ids are {@value #UID_WIDTH} bytes, as OpenTSDB's: fixed width, so the tag pairs at the end of a
 * data row need no separators and a row key of a series with two tags is 3 + 4 + 12 bytes.
 */
final class TsdbKeys {
  static final int UID_WIDTH = 3;

  /** Bytes of one (tagk id, tagv id) pair in a data row. */
  static final int TAG_PAIR_WIDTH = 2 * UID_WIDTH;

  /** Largest id of a kind: 2^24 - 1. */
  static final long MAX_UID = (1L << (8 * UID_WIDTH)) - 1;

  static final int COUNTER_SPACE = 0;
  static final int FORWARD_SPACE = 1;
  static final int REVERSE_SPACE = 2;

  /** The counter row's kind byte under which the salt bucket count is recorded. */
  private static final int SALT_RECORD_KIND = 0xFF;

  private static final long HOUR_MS = 3_600_000L;

  static final KeyLayout UID_COUNTER =
      KeyLayout.named("uid counter row")
          .part("space", PartType.BYTE)
          .part("kind", PartType.BYTE)
          .build();

  static final KeyLayout UID_FORWARD =
      KeyLayout.named("uid forward row")
          .part("space", PartType.BYTE)
          .part("kind", PartType.BYTE)
          .part("name", PartType.STRING)
          .build();

  static final KeyLayout UID_REVERSE =
      KeyLayout.named("uid reverse row")
          .part("space", PartType.BYTE)
          .part("kind", PartType.BYTE)
          .fixed("id", UID_WIDTH)
          .build();

  /**
   * A series' hour. {@code hour} is hours since the epoch (a signed int, order-preserving: good to
   * the year 240,000); {@code tags} is the run of (tagk id, tagv id) pairs sorted by tagk id.
   */
  static final KeyLayout DATA =
      KeyLayout.named("data row")
          .fixed("metric", UID_WIDTH)
          .part("hour", PartType.INT)
          .part("tags", PartType.TAIL)
          .build();

  /**
   * The salted form: a leading bucket computed from metric and tags (not the hour), so a series
   * stays in one bucket and its hours stay adjacent; a query scans every bucket.
   */
  static final KeyLayout SALTED_DATA =
      KeyLayout.named("salted data row")
          .part("salt", PartType.BYTE)
          .fixed("metric", UID_WIDTH)
          .part("hour", PartType.INT)
          .part("tags", PartType.TAIL)
          .build();

  /**
   * A series' day of hourly rollups: the data row's shape with days since the epoch where the data
   * row has hours, so the data rows' salt, scans and tag filters serve it unchanged.
   */
  static final KeyLayout ROLLUP_DAY =
      KeyLayout.named("rollup row")
          .fixed("metric", UID_WIDTH)
          .part("day", PartType.INT)
          .part("tags", PartType.TAIL)
          .build();

  static final KeyLayout SALTED_ROLLUP_DAY =
      KeyLayout.named("salted rollup row")
          .part("salt", PartType.BYTE)
          .fixed("metric", UID_WIDTH)
          .part("day", PartType.INT)
          .part("tags", PartType.TAIL)
          .build();

  static final int INDEX_STATE_SPACE = 0;
  static final int INDEX_SERIES_SPACE = 1;

  /**
   * The series index's state of a metric: whether every series of it is indexed. Metric id 0 is
   * never handed out (counters start at 1); its row records when the index came to be.
   */
  static final KeyLayout INDEX_STATE =
      KeyLayout.named("series index state row")
          .part("space", PartType.BYTE)
          .fixed("metric", UID_WIDTH)
          .build();

  /**
   * One series of a metric, ever written: its tsuid after a space byte, unsalted (a lookup reads
   * one metric's series in one bounded scan; each row is written once, so there is no hot spot to
   * spread).
   */
  static final KeyLayout INDEX_SERIES =
      KeyLayout.named("series index row")
          .part("space", PartType.BYTE)
          .fixed("metric", UID_WIDTH)
          .part("tags", PartType.TAIL)
          .build();

  static final List<KeyLayout> ALL =
      List.of(
          UID_COUNTER,
          UID_FORWARD,
          UID_REVERSE,
          DATA,
          SALTED_DATA,
          AnnotationKeys.GLOBAL,
          AnnotationKeys.SERIES,
          INDEX_STATE,
          INDEX_SERIES,
          ROLLUP_DAY,
          SALTED_ROLLUP_DAY);

  private TsdbKeys() {}

  // ---- base time ----

  /** The hour of a data row holding a point at {@code timestampMs}: hours since the epoch. */
  static int hourOf(long timestampMs) {
    return (int) (timestampMs / HOUR_MS);
  }

  /** The day (since the epoch) of an hour: the rollup row holding it. */
  static int dayOf(int hour) {
    return Math.floorDiv(hour, 24);
  }

  /** The first millisecond of {@code hour}. */
  static long hourStartMs(int hour) {
    return hour * HOUR_MS;
  }

  // ---- ids ----

  /** An id as its {@value #UID_WIDTH} big-endian bytes. */
  static byte[] uid(long id) {
    byte[] b = new byte[UID_WIDTH];
    long v = id;
    for (int i = UID_WIDTH - 1; i >= 0; i--) {
      b[i] = (byte) v;
      v >>>= 8;
    }
    return b;
  }

  /** The number of an id's bytes. */
  static long uidValue(byte[] id) {
    long v = 0;
    for (byte b : id) {
      v = (v << 8) | (b & 0xFF);
    }
    return v;
  }

  /** Upper-case hex of an id (or a run of them), as OpenTSDB prints ids. */
  static String hex(byte[] id) {
    // HexFormat, not String.format per byte: a lookup prints a tsuid for each of its series.
    return HEX.formatHex(id);
  }

  private static final HexFormat HEX = HexFormat.of().withUpperCase();

  /** The tsuid of a series: the hex of its metric id and tag run, as OpenTSDB prints it. */
  static String tsuid(byte[] metricId, byte[] tags) {
    return hex(metricId) + hex(tags);
  }

  // ---- uid rows ----

  /** The row whose counter hands out the ids of {@code kind}. */
  static byte[] counterRow(UidKind kind) {
    return UID_COUNTER.encode(COUNTER_SPACE, (int) kind.code());
  }

  /** The row recording the salt bucket count the data table was first used with. */
  static byte[] saltRecordRow() {
    return UID_COUNTER.encode(COUNTER_SPACE, SALT_RECORD_KIND);
  }

  static byte[] forwardRow(UidKind kind, String name) {
    return UID_FORWARD.encode(FORWARD_SPACE, (int) kind.code(), name);
  }

  static byte[] reverseRow(UidKind kind, byte[] id) {
    return UID_REVERSE.encode(REVERSE_SPACE, (int) kind.code(), id);
  }

  /** The forward rows of the names of {@code kind} that start with {@code prefix}. */
  static KeyRange forwardRowsStartingWith(UidKind kind, String prefix) {
    byte[] kindPrefix = UID_FORWARD.prefix(FORWARD_SPACE, (int) kind.code());
    byte[] escaped = KeyBuilder.create().addString(prefix).build();
    // The escaped form of a prefix is a prefix of the escaped name: drop the 2-byte terminator.
    return KeyRange.prefix(Bytes.add(kindPrefix, Arrays.copyOf(escaped, escaped.length - 2)));
  }

  /** The name a forward row maps. */
  static String forwardName(byte[] row) {
    return UID_FORWARD.decode(row).string("name");
  }

  // ---- tag runs ----

  /** One (tagk id, tagv id) pair. */
  static byte[] tagPair(byte[] tagk, byte[] tagv) {
    byte[] pair = new byte[TAG_PAIR_WIDTH];
    System.arraycopy(tagk, 0, pair, 0, UID_WIDTH);
    System.arraycopy(tagv, 0, pair, UID_WIDTH, UID_WIDTH);
    return pair;
  }

  /** The tag run of a data row: the pairs sorted by tagk id, end to end (sorts {@code pairs}). */
  static byte[] tagRun(byte[][] pairs) {
    Arrays.sort(pairs, Bytes.BYTES_COMPARATOR);
    byte[] out = new byte[pairs.length * TAG_PAIR_WIDTH];
    for (int i = 0; i < pairs.length; i++) {
      System.arraycopy(pairs[i], 0, out, i * TAG_PAIR_WIDTH, TAG_PAIR_WIDTH);
    }
    return out;
  }

  /** The (tagk id, tagv id) pairs of a tag run, in its order. */
  static List<byte[][]> tagIds(byte[] run) {
    List<byte[][]> out = new ArrayList<>(run.length / TAG_PAIR_WIDTH);
    for (int i = 0; i + TAG_PAIR_WIDTH <= run.length; i += TAG_PAIR_WIDTH) {
      out.add(
          new byte[][] {
            Arrays.copyOfRange(run, i, i + UID_WIDTH),
            Arrays.copyOfRange(run, i + UID_WIDTH, i + TAG_PAIR_WIDTH)
          });
    }
    return out;
  }

  // ---- series index ----

  /** The index row of the series {@code metric} and {@code tags} (a tag run). */
  static byte[] indexSeriesRow(byte[] metric, byte[] tags) {
    return INDEX_SERIES.encode(INDEX_SERIES_SPACE, metric, tags);
  }

  /** The index rows of {@code metric}'s series, in tsuid order. */
  static KeyRange indexSeriesOf(byte[] metric) {
    return KeyRange.prefix(INDEX_SERIES.prefix(INDEX_SERIES_SPACE, metric));
  }

  /** The tag run of a series index row. */
  static byte[] indexSeriesTags(byte[] row) {
    return (byte[]) INDEX_SERIES.decode(row).get("tags");
  }

  /** The row saying whether every series of {@code metric} is indexed. */
  static byte[] indexStateRow(byte[] metric) {
    return INDEX_STATE.encode(INDEX_STATE_SPACE, metric);
  }

  /** The row recording the index's start: metric id 0, which is never handed out. */
  static byte[] indexBirthRow() {
    return indexStateRow(uid(0));
  }

  // ---- data rows ----

  /** The data rows of a table salted into {@code saltBuckets} buckets (0: no salt). */
  static DataRows data(int saltBuckets) {
    return new DataRows(saltBuckets, DATA, SALTED_DATA, "hour");
  }

  /**
   * The rollup rows of a table salted as the data table: a series' rollups in the bucket of its
   * points, its day where a data row has its hour ({@link DataRows#start}, {@link DataRow#hour}
   * take and give the day).
   */
  static DataRows rollups(int saltBuckets) {
    return new DataRows(saltBuckets, ROLLUP_DAY, SALTED_ROLLUP_DAY, "day");
  }

  /** The parts of a data row key. */
  record DataRow(byte[] metric, int hour, byte[] tags) {}

  /** Builds and reads the data row keys of one salt setting. */
  static final class DataRows {
    private final int saltBuckets;
    private final KeyLayout layout;
    private final String period;

    private DataRows(int saltBuckets, KeyLayout plain, KeyLayout salted, String period) {
      this.saltBuckets = saltBuckets;
      this.layout = salted() ? salted : plain;
      this.period = period;
    }

    private boolean salted() {
      return saltBuckets > 1;
    }

    /** How many buckets a query scans: the salt bucket count, or 1 without salt. */
    int buckets() {
      return Math.max(1, saltBuckets);
    }

    /** The row of a series' hour; the salt bucket is the MD5 of metric id and tags. */
    byte[] row(byte[] metric, int hour, byte[] tags) {
      if (salted()) {
        return layout.encode(
            Hashing.bucket(Bytes.add(metric, tags), saltBuckets), metric, hour, tags);
      }
      return layout.encode(metric, hour, tags);
    }

    DataRow decode(byte[] row) {
      KeyLayout.Key k = layout.decode(row);
      return new DataRow((byte[]) k.get("metric"), k.integer(period), (byte[]) k.get("tags"));
    }

    /** The first row of {@code metric}'s hour {@code hour} in {@code bucket}. */
    byte[] start(int bucket, byte[] metric, int hour) {
      return salted() ? layout.prefix(bucket, metric, hour) : layout.prefix(metric, hour);
    }

    /** Bytes before the tags: salt, metric id, hour. */
    int prefixBytes() {
      return (salted() ? 1 : 0) + UID_WIDTH + Integer.BYTES;
    }

    String describe(byte[] row) {
      return layout.describe(row);
    }

    /**
     * A fuzzy-row pattern for rows of {@code metricId} holding (tagk, tagv) as their {@code
     * position}-th tag pair: the key and its mask (0: this byte must match, 1: any byte); salt and
     * hour any, metric id fixed, earlier pairs any.
     */
    byte[][] fuzzyPattern(byte[] metricId, byte[] tagk, byte[] tagv, int position) {
      int prefix = prefixBytes();
      int pairAt = prefix + position * TAG_PAIR_WIDTH;
      byte[] key = new byte[pairAt + TAG_PAIR_WIDTH];
      byte[] mask = new byte[key.length];
      Arrays.fill(mask, (byte) 1);
      int metricAt = prefix - metricId.length - Integer.BYTES;
      System.arraycopy(metricId, 0, key, metricAt, metricId.length);
      Arrays.fill(mask, metricAt, metricAt + metricId.length, (byte) 0);
      System.arraycopy(tagk, 0, key, pairAt, UID_WIDTH);
      System.arraycopy(tagv, 0, key, pairAt + UID_WIDTH, UID_WIDTH);
      Arrays.fill(mask, pairAt, key.length, (byte) 0);
      return new byte[][] {key, mask};
    }
  }
}
