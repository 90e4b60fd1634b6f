package org.casebook.core.hotspot;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import org.apache.hadoop.hbase.RegionMetrics;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.util.Bytes;
import org.casebook.core.StorageException;
import org.casebook.core.schema.SplitPoints;

/**
 * How writes spread over a table's regions: the share each region takes, and the skew (busiest
 * region's share over the mean share). A skew of 1.0 is a perfect spread; a skew equal to the
 * region count means one region takes every write.
 */
public final class HotspotReport {
  /** One region's part of the writes. */
  public record RegionShare(int region, String startKey, long writes, double share) {}

  /** The spread of one key design's writes. */
  public record Result(String design, int regions, long writes, List<RegionShare> shares) {
    public Result {
      Objects.requireNonNull(design, "design is null");
      shares = List.copyOf(shares);
    }

    public double maxShare() {
      return shares.stream().mapToDouble(RegionShare::share).max().orElse(0);
    }

    /** Max share over mean share (1.0 = even; {@code regions} = all in one region). */
    public double skew() {
      return regions == 0 || writes == 0 ? 0 : maxShare() * regions;
    }

    /** Regions that took at least 1% of the writes. */
    public int regionsUsed() {
      return (int) shares.stream().filter(s -> s.share() >= 0.01).count();
    }
  }

  private HotspotReport() {}

  /** Routes every key to its region exactly as HBase would, and counts. */
  public static Result analyse(String design, SplitPoints splits, Iterable<byte[]> keys) {
    long[] counts = new long[splits.regionCount()];
    long total = 0;
    for (byte[] key : keys) {
      counts[splits.regionOf(key)]++;
      total++;
    }
    List<byte[]> points = splits.points();
    List<RegionShare> shares = new ArrayList<>();
    for (int i = 0; i < counts.length; i++) {
      String start = i == 0 ? "" : Bytes.toStringBinary(points.get(i - 1));
      shares.add(new RegionShare(i, start, counts[i], total == 0 ? 0 : (double) counts[i] / total));
    }
    return new Result(design, counts.length, total, shares);
  }

  /**
   * The write-request counters of a live table's regions, as its region servers report them.
   * Counters are cumulative since each region opened.
   */
  public static Result fromLiveTable(Admin admin, TableName table) {
    try {
      List<RegionInfo> regions = new ArrayList<>(admin.getRegions(table));
      regions.sort(Comparator.comparing(RegionInfo::getStartKey, Bytes.BYTES_COMPARATOR));
      java.util.Map<String, Long> writesByRegion = new java.util.HashMap<>();
      for (ServerName server : admin.getRegionServers()) {
        for (RegionMetrics m : admin.getRegionMetrics(server, table)) {
          writesByRegion.put(Bytes.toStringBinary(m.getRegionName()), m.getWriteRequestCount());
        }
      }
      long total = writesByRegion.values().stream().mapToLong(Long::longValue).sum();
      List<RegionShare> shares = new ArrayList<>();
      for (int i = 0; i < regions.size(); i++) {
        RegionInfo r = regions.get(i);
        long w = writesByRegion.getOrDefault(Bytes.toStringBinary(r.getRegionName()), 0L);
        shares.add(
            new RegionShare(
                i, Bytes.toStringBinary(r.getStartKey()), w, total == 0 ? 0 : (double) w / total));
      }
      return new Result(table.getNameAsString(), regions.size(), total, shares);
    } catch (IOException e) {
      throw StorageException.of("read region metrics of " + table, e);
    }
  }

  /** A summary table (one line per design) followed by each design's per-region shares. */
  public static String render(List<Result> results) {
    StringBuilder sb = new StringBuilder();
    int w = Math.max(6, results.stream().mapToInt(r -> r.design().length()).max().orElse(6));
    sb.append(
        String.format(
            Locale.ROOT,
            "%-" + w + "s %8s %10s %10s %8s %8s%n",
            "design",
            "regions",
            "writes",
            "max share",
            "skew",
            "used"));
    for (Result r : results) {
      sb.append(
          String.format(
              Locale.ROOT,
              "%-" + w + "s %8d %,10d %9.1f%% %8.2f %5d/%d%n",
              r.design(),
              r.regions(),
              r.writes(),
              r.maxShare() * 100,
              r.skew(),
              r.regionsUsed(),
              r.regions()));
    }
    for (Result r : results) {
      sb.append(System.lineSeparator()).append(r.design()).append(System.lineSeparator());
      for (RegionShare s : r.shares()) {
        int bar = (int) Math.round(s.share() * 50);
        sb.append(
            String.format(
                Locale.ROOT,
                "  region %2d %-28s %6.1f%% %s%n",
                s.region(),
                truncate(s.startKey().isEmpty() ? "(first)" : s.startKey(), 28),
                s.share() * 100,
                "#".repeat(bar)));
      }
    }
    return sb.toString();
  }

  private static String truncate(String s, int n) {
    return s.length() <= n ? s : s.substring(0, n - 1) + "…";
  }
}
