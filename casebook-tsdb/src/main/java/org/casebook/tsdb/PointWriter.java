package org.casebook.tsdb;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.util.Bytes;

/** Turns checked points into cells: ids for names, the row key, the column, the value. */
final class PointWriter {
  private final TsdbStore store;
  private final Uids uids;
  private final Compactor compactor;

  PointWriter(TsdbStore store, Uids uids, Compactor compactor) {
    this.store = store;
    this.uids = uids;
    this.compactor = compactor;
  }

  /** Queues the points (durable within the mutator's flush period, or after {@link #flush}). */
  void write(List<IncomingPoint> points) {
    // Points of one series and hour in the same batch go into one Put: one mutation, one row
    // key on the wire, one compaction notice.
    Map<java.nio.ByteBuffer, Put> byRow = new java.util.LinkedHashMap<>();
    for (IncomingPoint p : points) {
      addTo(byRow, p);
    }
    store.write(new ArrayList<>(byRow.values()));
  }

  void flush() {
    store.flush();
  }

  private void addTo(Map<java.nio.ByteBuffer, Put> byRow, IncomingPoint p) {
    byte[] metric = uids.getOrAssign(UidKind.METRIC, p.metric());
    byte[] tags = tagBytes(p.tags());
    int hour = PointCodec.hourOf(p.timestampMs());
    byte[] row = store.rowKey(metric, hour, tags);
    byte[] value = PointCodec.value(p.value(), p.narrowFloat());
    byte[] qualifier =
        PointCodec.qualifier(
            p.timestampMs(), p.millis(), PointCodec.flags(p.value().integer(), value.length));
    Put put =
        byRow.computeIfAbsent(
            java.nio.ByteBuffer.wrap(row),
            k -> {
              compactor.touched(row, hour);
              return new Put(row);
            });
    put.addColumn(TsdbSchema.T, qualifier, value);
  }

  /** The tag bytes from cached ids only (the common case), or null if a name is not cached. */
  private byte[] cachedTagBytes(Map<String, String> tags) {
    int w = TsdbKeys.UID_WIDTH;
    byte[][] pairs = new byte[tags.size()][];
    int i = 0;
    for (Map.Entry<String, String> t : tags.entrySet()) {
      byte[] k = uids.cached(UidKind.TAGK, t.getKey());
      byte[] v = k == null ? null : uids.cached(UidKind.TAGV, t.getValue());
      if (v == null) {
        return null;
      }
      byte[] pair = new byte[2 * w];
      System.arraycopy(k, 0, pair, 0, w);
      System.arraycopy(v, 0, pair, w, w);
      pairs[i++] = pair;
    }
    java.util.Arrays.sort(pairs, Bytes.BYTES_COMPARATOR);
    byte[] out = new byte[pairs.length * 2 * w];
    for (int j = 0; j < pairs.length; j++) {
      System.arraycopy(pairs[j], 0, out, j * 2 * w, 2 * w);
    }
    return out;
  }

  /** (tagk id, tagv id) pairs sorted by tagk id, as the row key carries them. */
  byte[] tagBytes(Map<String, String> tags) {
    byte[] fast = cachedTagBytes(tags);
    if (fast != null) {
      return fast;
    }
    List<byte[]> pairs = new ArrayList<>(tags.size());
    // New names get ids in the order OpenTSDB gives them: it walks the tags of a point in
    // java.util.HashMap order. Ids order the series of an answer (and so first, last and diff),
    // so the same points written to both must get ids in the same order to give the same answers.
    for (Map.Entry<String, String> t : new HashMap<>(tags).entrySet()) {
      pairs.add(
          Bytes.add(
              uids.getOrAssign(UidKind.TAGK, t.getKey()),
              uids.getOrAssign(UidKind.TAGV, t.getValue())));
    }
    pairs.sort(Bytes.BYTES_COMPARATOR);
    byte[] out = new byte[pairs.size() * 2 * TsdbKeys.UID_WIDTH];
    int i = 0;
    for (byte[] pair : pairs) {
      System.arraycopy(pair, 0, out, i, pair.length);
      i += pair.length;
    }
    return out;
  }
}
