package org.casebook.tsdb;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns checked points into cells — ids for names, the row key, the column, the value — and hands
 * them to the point store, which gathers them per row before they reach HBase; a series new to the
 * series index is indexed first.
 */
final class PointWriter {
  private final PointStore store;
  private final Uids uids;
  private final Compactor compactor;
  private final SeriesIndex index;

  PointWriter(PointStore store, Uids uids, Compactor compactor, SeriesIndex index) {
    this.store = store;
    this.uids = uids;
    this.compactor = compactor;
    this.index = index;
  }

  /**
   * Queues the points: durable within the store's gathering period plus its write buffer's flush
   * period, or once {@link #flush} returns.
   */
  void write(List<IncomingPoint> points) {
    int n = points.size();
    byte[][] rows = new byte[n][];
    byte[][] qualifiers = new byte[n][];
    byte[][] values = new byte[n][];
    byte[][] metrics = new byte[n][];
    byte[][] tagRuns = new byte[n][];
    for (int i = 0; i < n; i++) {
      IncomingPoint p = points.get(i);
      byte[] metric = uids.getOrAssign(UidKind.METRIC, p.metric());
      int hour = TsdbKeys.hourOf(p.timestampMs());
      metrics[i] = metric;
      tagRuns[i] = tagRun(p.tags());
      rows[i] = store.keys().row(metric, hour, tagRuns[i]);
      values[i] = PointCodec.value(p.value(), p.narrowFloat());
      qualifiers[i] =
          PointCodec.qualifier(
              p.timestampMs(), p.millis(), PointCodec.flags(p.value().integer(), values[i].length));
      compactor.touched(rows[i], hour);
    }
    // Before the points: a lookup must not miss a series whose points can be read.
    index.index(metrics, tagRuns);
    store.add(rows, qualifiers, values);
  }

  /** Returns once every point written before the call is durable in HBase. */
  void flush() {
    store.flush();
  }

  /** Taken before {@link #write}, for {@link #flush(long)}. */
  long failureMark() {
    return store.failureMark();
  }

  /**
   * Returns once every point written before the call is durable in HBase; throws if any write
   * failed since {@code failureMark}, whichever flush it was in.
   */
  void flush(long failureMark) {
    store.flush(failureMark);
  }

  /** The tag run from cached ids only (the common case), or null if a name is not cached. */
  private byte[] cachedTagRun(Map<String, String> tags) {
    byte[][] pairs = new byte[tags.size()][];
    int i = 0;
    for (Map.Entry<String, String> t : tags.entrySet()) {
      byte[] k = uids.cached(UidKind.TAGK, t.getKey());
      byte[] v = k == null ? null : uids.cached(UidKind.TAGV, t.getValue());
      if (v == null) {
        return null;
      }
      pairs[i++] = TsdbKeys.tagPair(k, v);
    }
    return TsdbKeys.tagRun(pairs);
  }

  /** The (tagk id, tagv id) pairs of the row key, assigning ids to new names. */
  byte[] tagRun(Map<String, String> tags) {
    byte[] fast = cachedTagRun(tags);
    if (fast != null) {
      return fast;
    }
    byte[][] pairs = new byte[tags.size()][];
    int i = 0;
    // New names get ids in the order OpenTSDB gives them: it walks the tags of a point in
    // java.util.HashMap order. Ids order the series of an answer (and so first, last and diff),
    // so the same points written to both must get ids in the same order to give the same answers.
    for (Map.Entry<String, String> t : new HashMap<>(tags).entrySet()) {
      pairs[i++] =
          TsdbKeys.tagPair(
              uids.getOrAssign(UidKind.TAGK, t.getKey()),
              uids.getOrAssign(UidKind.TAGV, t.getValue()));
    }
    return TsdbKeys.tagRun(pairs);
  }
}
