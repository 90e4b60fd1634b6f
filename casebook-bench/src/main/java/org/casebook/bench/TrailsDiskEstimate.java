package org.casebook.bench;

import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.casebook.core.InvalidInputException;
import org.casebook.core.LocalFileException;
import org.casebook.trails.batch.TrailsBulkLoad;

/**
 * The disk {@code bench trails} needs at its fullest, estimated from per-record factors measured on
 * this machine, and the refusal to start when the work directory's file system has less free. The
 * run's phases, one after the other, each holding what the ones before left:
 *
 * <ol>
 *   <li>the log is written (or reused);
 *   <li>HBase loads it: the bulk load holds the map tasks' output until the job ends, while the
 *       reducers merge their shares on disk and write the HFiles; the Puts hold write-ahead logs
 *       and the files compactions replaced (both kept by HBase's cleaners for minutes) beside the
 *       tables. Tables dropped (an earlier load round's, the bulk load's own namespace beside the
 *       Puts) stay in HBase's archive for 5 minutes or more;
 *   <li>PostgreSQL's COPY of the same log beside HBase's tables: heap and write-ahead log;
 *   <li>PostgreSQL's index builds: both indexes, the sort files of one, the write-ahead log. The
 *       log is removed before them (after the last COPY) unless {@code --keep-log} or more than one
 *       load round asks for it again.
 * </ol>
 *
 * <p>Everything is counted as if on the work directory's file system (HBase's data directory is
 * usually beside it); the log's own bytes count as free when it is already there (reused, or
 * replaced).
 */
final class TrailsDiskEstimate {
  // Per generated log line (1% of them malformed, not stored), measured on this machine on
  // 2026-11-27 with `bench trails --records 1000000 --users 66667 --load bulk --no-mapreduce`,
  // sampling du every second (the directories under the work directory and HBase's data
  // directory). Rounded up. Neither the lines nor the stored rows grow with the size: user ids
  // keep 8 digits up to 90M users and the days stay 10.

  /** The JSON-lines log: 111,793,503 bytes for 1M lines. */
  static final double LOG_BYTES_PER_RECORD = 112;

  /**
   * HBase's three trails tables (events, history_tall, history_wide), store file bytes after the
   * load: 389,886,379 bytes for 1M lines (990,116 accepted; 394 per accepted record).
   */
  static final double HBASE_BYTES_PER_RECORD = 390;

  /**
   * The bulk load at its fullest, its tables included, with the map output LZ4-compressed (logs of
   * {@link TrailsBulkLoad#COMPRESS_SHUFFLE_FROM_BYTES} and more): map output, the reducers' merged
   * copies and the HFiles at their joint peak were 554 MB at 1M lines with the reducers' shuffle
   * memory made small enough (mapreduce.reduce.memory.totalbytes=16000000) that they merged on
   * disk, as their gigabyte shares do at the seed's size.
   */
  static final double BULK_LOAD_PEAK_BYTES_PER_RECORD_COMPRESSED = 560;

  /**
   * The same for smaller logs, whose map output is not compressed: 466 MB of map output at 1M
   * lines, to which the reducers' merged copies add 63% when they merge on disk (measured on the
   * compressed run: 136 → 222 MB), and the HFiles 390 MB.
   */
  static final double BULK_LOAD_PEAK_BYTES_PER_RECORD = 466 * 1.63 + 390;

  /** PostgreSQL's heap: 114,393,088 bytes for 1M lines. */
  static final double POSTGRES_HEAP_BYTES_PER_RECORD = 115;

  /** Both indexes: 40,230,912 and 40,222,720 bytes for 1M lines. */
  static final double POSTGRES_INDEX_BYTES_PER_RECORD = 81;

  /**
   * An index build's sort files: about one index's tuples (each index is built after the other, the
   * first one's sort files gone). At 1M lines the sort stays in memory; this is the index's size.
   */
  static final double POSTGRES_INDEX_SORT_BYTES_PER_RECORD = 41;

  /**
   * PostgreSQL's write-ahead log during COPY and the index builds: the benchmark's server runs with
   * {@code max_wal_size=2GB}, which checkpoints keep it near (184 MB at 1M lines); 1 GiB more for
   * segments a checkpoint has not recycled yet.
   */
  static final long POSTGRES_WAL_BYTES = 3L << 30;

  /**
   * The Put path's write-ahead logs and compacted-away files, kept by HBase's cleaners for 5–10
   * minutes after they stop being needed, at the ingest's rate (27k lines/s at 10M): not measured
   * at the seed's size, counted as a second copy of the tables.
   */
  static final double PUTS_EXTRA_FACTOR = 1.0;

  /** Free space asked beyond the estimate: a tenth of it, at least 2 GiB. */
  static final double MARGIN_SHARE = 0.10;

  static final long MIN_MARGIN_BYTES = 2L << 30;

  /**
   * The estimate: the log, and what is on disk at the fullest moment of each later phase (the log
   * included where it is still there).
   */
  record Need(long log, long hbaseLoad, long postgresCopy, long postgresIndexes) {
    long peak() {
      return Math.max(log, Math.max(hbaseLoad, Math.max(postgresCopy, postgresIndexes)));
    }

    /** The free space asked for: the peak and the margin. */
    long withMargin() {
      long peak = peak();
      return peak + Math.max(MIN_MARGIN_BYTES, (long) (peak * MARGIN_SHARE));
    }

    String describe() {
      return String.format(
          Locale.ROOT,
          "log %s; at their fullest: HBase's load %s, PostgreSQL's COPY %s, its index builds %s;"
              + " peak %s, with the margin %s",
          gb(log),
          gb(hbaseLoad),
          gb(postgresCopy),
          gb(postgresIndexes),
          gb(peak()),
          gb(withMargin()));
    }
  }

  /**
   * A run's options that move the estimate.
   *
   * @param loadRounds load rounds on each side, the warm-up round included
   * @param keepLog whether the log stays to the end ({@code --keep-log})
   */
  record Run(
      long records, TrailsBenchmark.Load load, int loadRounds, boolean postgres, boolean keepLog) {}

  private TrailsDiskEstimate() {}

  /** What {@code run} needs. */
  static Need of(Run run) {
    long records = run.records();
    long log = bytes(records, LOG_BYTES_PER_RECORD);
    long tables = bytes(records, HBASE_BYTES_PER_RECORD);
    boolean compressed = log >= TrailsBulkLoad.COMPRESS_SHUFFLE_FROM_BYTES;
    long bulkPeak =
        bytes(
            records,
            compressed
                ? BULK_LOAD_PEAK_BYTES_PER_RECORD_COMPRESSED
                : BULK_LOAD_PEAK_BYTES_PER_RECORD);
    // An earlier round's tables, dropped, still in HBase's archive.
    long archivedRound = run.loadRounds() > 1 ? tables : 0;
    long putsLoad = tables + (long) (tables * PUTS_EXTRA_FACTOR);
    long hbaseLoad;
    long afterLoad; // HBase's share while PostgreSQL loads
    switch (run.load()) {
      case BULK -> {
        hbaseLoad = bulkPeak + archivedRound;
        afterLoad = tables;
      }
      case PUTS -> {
        hbaseLoad = putsLoad;
        afterLoad = tables;
      }
      default -> {
        // The bulk load's namespace beside the Put-loaded tables, then in the archive for a while.
        hbaseLoad = Math.max(putsLoad, tables + bulkPeak + archivedRound);
        afterLoad = 2 * tables;
      }
    }
    long copy = 0;
    long indexes = 0;
    if (run.postgres()) {
      long heap = bytes(records, POSTGRES_HEAP_BYTES_PER_RECORD);
      copy = log + afterLoad + heap + POSTGRES_WAL_BYTES;
      boolean logThere = run.keepLog() || run.loadRounds() > 1;
      indexes =
          (logThere ? log : 0)
              + afterLoad
              + heap
              + bytes(
                  records, POSTGRES_INDEX_BYTES_PER_RECORD + POSTGRES_INDEX_SORT_BYTES_PER_RECORD)
              + POSTGRES_WAL_BYTES;
    }
    return new Need(log, log + hbaseLoad, copy, indexes);
  }

  /**
   * Refuses (exit 2, naming {@code --records}) when {@code free} bytes are fewer than what {@code
   * run} needs with the margin, saying the largest {@code --records} that would fit.
   */
  static void check(Run run, long free, Path where) {
    Need need = of(run);
    if (free >= need.withMargin()) {
      return;
    }
    long fits = largestFitting(run, free);
    throw new InvalidInputException(
        "records",
        String.format(
            Locale.ROOT,
            "--records %,d needs about %s of free disk, %s is free for %s (%s). %s Or"
                + " --skip-disk-check to start anyway.",
            run.records(),
            gb(need.withMargin()),
            gb(free),
            where,
            need.describe(),
            fits >= 1000
                ? String.format(
                    Locale.ROOT,
                    "At most --records %,d fits with these options%s.",
                    fits,
                    run.load() == TrailsBenchmark.Load.BULK
                            && run.loadRounds() == 1
                            && !run.keepLog()
                        ? ""
                        : " (--load bulk --load-rounds 1 --no-load-warmup without --keep-log needs"
                            + " the least)")
                : "Not even 1,000 records fit."));
  }

  /**
   * The largest record count, two significant digits, whose need with its margin fits: the need
   * grows with the records except where the log reaches the size from which the bulk load
   * compresses its map output, so each side of that is searched on its own.
   */
  static long largestFitting(Run run, long free) {
    long compressedFrom =
        (long) Math.ceil(TrailsBulkLoad.COMPRESS_SHUFFLE_FROM_BYTES / LOG_BYTES_PER_RECORD);
    long above = largestIn(run, free, compressedFrom, 100_000_000_000L);
    long lo = above >= 0 ? above : Math.max(0, largestIn(run, free, 0, compressedFrom - 1));
    long unit = 1;
    while (lo / unit >= 100) {
      unit *= 10;
    }
    return lo / unit * unit;
  }

  /** The largest count in [from, to] that fits, -1 when none does (the need grows in between). */
  private static long largestIn(Run run, long free, long from, long to) {
    if (of(withRecords(run, from)).withMargin() > free) {
      return -1;
    }
    long lo = from;
    long hi = to;
    while (lo < hi) {
      long mid = lo + (hi - lo + 1) / 2;
      if (of(withRecords(run, mid)).withMargin() <= free) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    return lo;
  }

  private static Run withRecords(Run run, long records) {
    return new Run(records, run.load(), run.loadRounds(), run.postgres(), run.keepLog());
  }

  /** Free bytes on the file system holding {@code dir}, or its nearest existing parent. */
  static long freeBytes(Path dir) {
    Path p = dir.toAbsolutePath();
    while (p != null && !Files.exists(p)) {
      p = p.getParent();
    }
    if (p == null) {
      throw LocalFileException.of(
          "find the file system of", dir, new java.io.FileNotFoundException("no parent exists"));
    }
    try {
      FileStore store = Files.getFileStore(p);
      return store.getUsableSpace();
    } catch (IOException e) {
      throw LocalFileException.of("read the free space of", p, e);
    }
  }

  private static long bytes(long records, double perRecord) {
    return (long) Math.ceil(records * perRecord);
  }

  static String gb(long bytes) {
    return String.format(Locale.ROOT, "%.1f GB", bytes / 1e9);
  }
}
