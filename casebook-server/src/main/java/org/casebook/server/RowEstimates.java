package org.casebook.server;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.KeyOnlyFilter;
import org.apache.hadoop.hbase.util.Bytes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Rows per region for the overview. HBase keeps no row count, so each region is sampled: a bounded
 * scan of its first {@link #SAMPLE} rows. A region with fewer rows is counted exactly; a larger one
 * is estimated as the region's uncompressed size divided by the sample's mean row size (versions
 * and deletes not yet compacted away make that an over-estimate). Sampling runs on one background
 * thread, so the overview never waits for it: a region is sampled again when its write counter or
 * its size has moved (a bulk load moves only the size), at most every {@link #MIN_AGE_MILLIS}, and
 * at least every {@link #MAX_AGE_MILLIS}. The sample reads keys and value lengths only ({@code
 * KeyOnlyFilter(true)}), so a region of large values costs no more than one of small ones.
 */
final class RowEstimates implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(RowEstimates.class);
  static final int SAMPLE = 1000;
  static final long MAX_AGE_MILLIS = 60_000;
  static final long MIN_AGE_MILLIS = 2_000;
  static final int SAMPLE_TIMEOUT_MILLIS = 10_000;

  /**
   * Rows of one region, exact when the region had no more than {@link #SAMPLE} rows; {@code
   * writeRequests}: the region's write counter when it was sampled.
   */
  record Estimate(
      long rows, boolean exact, long atMillis, long writeRequests, long uncompressedBytes) {}

  /**
   * A region to sample: its table and its uncompressed bytes (store files plus memstore) as the
   * region server reports them. Its key range is looked up, not guessed from its neighbours: while
   * a region splits, the parent and its daughters are reported side by side.
   */
  record Region(String encodedName, TableName table, long uncompressedBytes, long writeRequests) {}

  private final Connection connection;
  private final Map<String, Estimate> byRegion = new ConcurrentHashMap<>();

  /**
   * Key ranges by encoded region name: a region's range never changes (a split makes new names).
   * Empty for a region that {@code hbase:meta} no longer lists (a split parent still reported), so
   * that it is not looked up again while it is reported.
   */
  private final Map<String, Optional<RegionInfo>> ranges = new ConcurrentHashMap<>();

  private final AtomicBoolean sampling = new AtomicBoolean();
  private final ExecutorService worker =
      Executors.newSingleThreadExecutor(
          r -> {
            Thread t = new Thread(r, "console-row-estimates");
            t.setDaemon(true);
            return t;
          });

  RowEstimates(Connection connection) {
    this.connection = connection;
  }

  /** The latest estimate of a region, or null before its first sample. */
  Estimate get(String encodedRegionName) {
    return byRegion.get(encodedRegionName);
  }

  /**
   * Starts sampling the regions whose estimate is missing, stale or behind their writes, unless a
   * pass is already running; forgets regions that are gone (split, merged, dropped).
   */
  void refresh(List<Region> regions) {
    Set<String> names = regions.stream().map(Region::encodedName).collect(Collectors.toSet());
    byRegion.keySet().retainAll(names);
    ranges.keySet().retainAll(names);
    long now = System.currentTimeMillis();
    List<Region> due =
        regions.stream()
            .filter(
                r -> {
                  Estimate e = byRegion.get(r.encodedName());
                  if (e == null) {
                    return true;
                  }
                  long age = now - e.atMillis();
                  return age > MAX_AGE_MILLIS
                      || (age > MIN_AGE_MILLIS
                          && (r.writeRequests() != e.writeRequests()
                              || r.uncompressedBytes() != e.uncompressedBytes()));
                })
            .toList();
    if (due.isEmpty() || !sampling.compareAndSet(false, true)) {
      return;
    }
    try {
      worker.execute(
          () -> {
            try {
              for (Region r : due) {
                try {
                  Optional<RegionInfo> range = range(r);
                  if (range.isPresent()) {
                    byRegion.put(r.encodedName(), sample(r, range.get()));
                  }
                } catch (IOException | RuntimeException e) {
                  // This region keeps its last estimate (or none); the others go on, and the next
                  // refresh tries it again.
                  LOG.warn(
                      "row estimates: could not sample region {} of {}: {}",
                      r.encodedName(),
                      r.table(),
                      e.toString());
                }
              }
            } finally {
              sampling.set(false);
            }
          });
    } catch (java.util.concurrent.RejectedExecutionException closed) {
      sampling.set(false);
    }
  }

  /**
   * The region's key range, from the table's regions in {@code hbase:meta} when it is new to this
   * process; empty when the region is gone (split or merged since it was reported).
   */
  private Optional<RegionInfo> range(Region region) throws IOException {
    Optional<RegionInfo> known = ranges.get(region.encodedName());
    if (known == null) {
      try (Admin admin = connection.getAdmin()) {
        for (RegionInfo info : admin.getRegions(region.table())) {
          ranges.put(info.getEncodedName(), Optional.of(info));
        }
      }
      known = ranges.computeIfAbsent(region.encodedName(), name -> Optional.empty());
    }
    return known;
  }

  private Estimate sample(Region region, RegionInfo range) throws IOException {
    Scan scan =
        new Scan()
            .withStartRow(range.getStartKey())
            .withStopRow(range.getEndKey())
            .setLimit(SAMPLE + 1)
            .setCaching(SAMPLE + 1)
            .setCacheBlocks(false)
            .setReadType(Scan.ReadType.PREAD)
            .setFilter(new KeyOnlyFilter(true));
    long rows = 0;
    long bytes = 0;
    // Bounded: one slow region must not hold the sampling thread for the client's default 20 min.
    try (Table table =
            connection
                .getTableBuilder(region.table(), null)
                .setOperationTimeout(SAMPLE_TIMEOUT_MILLIS)
                .setReadRpcTimeout(SAMPLE_TIMEOUT_MILLIS)
                .build();
        ResultScanner scanner = table.getScanner(scan)) {
      for (Result row : scanner) {
        rows++;
        for (Cell c : row.rawCells()) {
          // The value is its own length (4 bytes): count the stored value's length instead.
          int stored = Bytes.toInt(c.getValueArray(), c.getValueOffset(), c.getValueLength());
          bytes += c.getSerializedSize() - c.getValueLength() + stored;
        }
      }
    }
    long now = System.currentTimeMillis();
    if (rows <= SAMPLE) {
      return new Estimate(rows, true, now, region.writeRequests(), region.uncompressedBytes());
    }
    double meanRowBytes = (double) bytes / rows;
    long estimated = Math.round(region.uncompressedBytes() / meanRowBytes);
    return new Estimate(
        Math.max(rows, estimated), false, now, region.writeRequests(), region.uncompressedBytes());
  }

  @Override
  public void close() {
    worker.shutdownNow();
    try {
      worker.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
