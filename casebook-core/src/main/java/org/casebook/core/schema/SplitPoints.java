package org.casebook.core.schema;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.apache.hadoop.hbase.util.Bytes;

/** Pre-split points for a table: {@code n} points make {@code n + 1} regions. */
public final class SplitPoints {
  private static final SplitPoints NONE = new SplitPoints(List.of(), "none");
  private final List<byte[]> points;
  private final String description;

  private SplitPoints(List<byte[]> points, String description) {
    this.points = points;
    this.description = description;
  }

  public static SplitPoints none() {
    return NONE;
  }

  /** Explicit points; they are sorted and must be distinct and non-empty. */
  public static SplitPoints of(List<byte[]> points, String description) {
    Objects.requireNonNull(points, "points is null");
    List<byte[]> sorted = new ArrayList<>();
    for (byte[] p : points) {
      if (p == null || p.length == 0) {
        throw new IllegalArgumentException("split points must be non-empty");
      }
      sorted.add(p.clone());
    }
    sorted.sort(Bytes.BYTES_COMPARATOR);
    for (int i = 1; i < sorted.size(); i++) {
      if (Bytes.equals(sorted.get(i - 1), sorted.get(i))) {
        throw new IllegalArgumentException(
            "duplicate split point " + Bytes.toStringBinary(sorted.get(i)));
      }
    }
    return new SplitPoints(List.copyOf(sorted), description);
  }

  /**
   * One region per leading-byte bucket {@code 0..buckets-1}, as written by {@code
   * KeyBuilder.addSalt} or a one-byte region identifier.
   */
  public static SplitPoints leadingByteBuckets(int buckets) {
    if (buckets < 1 || buckets > 256) {
      throw new IllegalArgumentException("buckets must be 1..256: " + buckets);
    }
    List<byte[]> p = new ArrayList<>();
    for (int b = 1; b < buckets; b++) {
      p.add(new byte[] {(byte) b});
    }
    return new SplitPoints(List.copyOf(p), buckets + " leading-byte buckets");
  }

  /**
   * One region per 2-byte region identifier {@code 0..regions-1} ({@code KeyBuilder.addRegionId}).
   */
  public static SplitPoints regionPrefixes(int regions) {
    if (regions < 1 || regions > 65536) {
      throw new IllegalArgumentException("regions must be 1..65536: " + regions);
    }
    List<byte[]> p = new ArrayList<>();
    for (int r = 1; r < regions; r++) {
      p.add(new byte[] {(byte) (r >>> 8), (byte) r});
    }
    return new SplitPoints(List.copyOf(p), regions + " region identifiers");
  }

  /**
   * {@code regions} regions of equal width over the first two key bytes, for uniformly distributed
   * keys such as hash prefixes.
   */
  public static SplitPoints uniform(int regions) {
    if (regions < 1 || regions > 65536) {
      throw new IllegalArgumentException("regions must be 1..65536: " + regions);
    }
    List<byte[]> p = new ArrayList<>();
    for (int i = 1; i < regions; i++) {
      int v = (int) ((long) i * 65536 / regions);
      p.add(new byte[] {(byte) (v >>> 8), (byte) v});
    }
    return of(p, regions + " uniform regions");
  }

  /**
   * Points at the quantiles of a sorted-or-not key sample: where regions would end up after
   * splitting.
   */
  public static SplitPoints quantiles(List<byte[]> sample, int regions) {
    if (regions < 1) {
      throw new IllegalArgumentException("regions must be >= 1");
    }
    if (regions == 1 || sample.isEmpty()) {
      return NONE;
    }
    List<byte[]> sorted = new ArrayList<>(sample);
    sorted.sort(Bytes.BYTES_COMPARATOR);
    List<byte[]> p = new ArrayList<>();
    for (int i = 1; i < regions; i++) {
      byte[] candidate = sorted.get((int) ((long) i * sorted.size() / regions));
      if (candidate.length > 0
          && (p.isEmpty() || Bytes.compareTo(p.get(p.size() - 1), candidate) < 0)) {
        p.add(candidate);
      }
    }
    return new SplitPoints(List.copyOf(p), regions + " regions at sample quantiles");
  }

  public List<byte[]> points() {
    List<byte[]> copy = new ArrayList<>(points.size());
    for (byte[] p : points) {
      copy.add(p.clone());
    }
    return copy;
  }

  public byte[][] toArray() {
    return points().toArray(new byte[0][]);
  }

  public int regionCount() {
    return points.size() + 1;
  }

  /**
   * Index of the region {@code row} falls in, as HBase routes it (binary search over split points).
   */
  public int regionOf(byte[] row) {
    int lo = 0;
    int hi = points.size();
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (Bytes.compareTo(points.get(mid), row) <= 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  public String description() {
    return description;
  }

  @Override
  public String toString() {
    return description
        + " "
        + Arrays.toString(points.stream().map(Bytes::toStringBinary).toArray());
  }
}
