package org.casebook.tsdb;

import java.util.List;
import java.util.Optional;

/**
 * The time range OpenTSDB 2.4 reads for a query and aggregates over, wider than the query's own
 * [start, end] (OpenTSDB {@code TsdbQuery.getScanStartTimeSeconds} / {@code
 * getScanEndTimeSeconds}). Points outside [start, end] still shape the answer: they are the
 * neighbours a group interpolates towards, the previous value of the first rate, and they fill
 * downsampling intervals cut by the query's edges.
 *
 * <p>Start: the query start in seconds, aligned down to its downsampling interval (if any, not for
 * "all"), then down to the hour. End: the query end in seconds plus one (OpenTSDB adds a second to
 * millisecond ends), then without downsampling up to the next hour strictly after it; with
 * downsampling first to the start of the interval strictly after it, then up to an hour boundary
 * (unless already on one).
 *
 * @param startMs first millisecond read (inclusive)
 * @param endMs first millisecond not read (exclusive); also the last timestamp the group iterates
 */
record ScanWindow(long startMs, long endMs) {
  private static final long HOUR_SECONDS = 3600;

  /** The window for a query [queryStartMs, queryEndMs] with this downsampling. */
  static ScanWindow of(long queryStartMs, long queryEndMs, Optional<DownsampleSpec> downsample) {
    long interval = downsample.map(DownsampleSpec::intervalMs).orElse(0L);
    long start = queryStartMs / 1000;
    if (interval > 0) {
      start -= ((1000L * start) % interval) / 1000L;
    }
    start -= start % HOUR_SECONDS;
    start = Math.max(start, 0);

    long end = queryEndMs / 1000 + 1;
    long scanEnd;
    if (interval > 0) {
      long aligned = end + (interval - (1000L * end) % interval) / 1000L;
      long offset = aligned % HOUR_SECONDS;
      scanEnd = offset == 0 ? aligned : aligned + (HOUR_SECONDS - offset);
    } else {
      scanEnd = end + (HOUR_SECONDS - end % HOUR_SECONDS);
    }
    return new ScanWindow(start * 1000, scanEnd * 1000);
  }

  /**
   * The points of {@code sorted} (ascending time) inside the window: a view, found by binary
   * search, so a series wholly inside costs nothing.
   */
  List<DataPoint> cut(List<DataPoint> sorted) {
    int from = firstAtOrAfter(sorted, startMs);
    int to = firstAtOrAfter(sorted, endMs);
    return from == 0 && to == sorted.size() ? sorted : sorted.subList(from, to);
  }

  private static int firstAtOrAfter(List<DataPoint> sorted, long timestampMs) {
    int lo = 0;
    int hi = sorted.size();
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (sorted.get(mid).timestampMs() < timestampMs) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  /** Whether a stored point at {@code timestampMs} is read. */
  boolean contains(long timestampMs) {
    return timestampMs >= startMs && timestampMs < endMs;
  }
}
