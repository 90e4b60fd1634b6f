package org.casebook.core.schema;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.util.CommonFSUtils;
import org.casebook.core.StorageException;

/**
 * What a table is on the cluster, for an operator: its regions, the bytes its store files take on
 * disk (one copy, compressed as written; HDFS replication not counted), how those bytes spread over
 * the regions, and each family's settings as HBase holds them (which may differ from the declared
 * ones until {@code schema ensure} runs).
 *
 * <p>Bytes are read from the filesystem rather than from the region servers' load reports, which
 * round to megabytes. Files a compaction replaced stay until HBase discharges them (minutes), so
 * shortly after a compaction the figure includes both.
 *
 * @param exists false for a declared table not created yet (every other field is then empty)
 * @param regionBytes store file bytes per region, in key order
 * @param familyBytes store file bytes per family, over every region
 * @param storeFiles how many store files there are
 */
public record TableFootprint(
    TableName table,
    boolean exists,
    int regions,
    long bytesOnDisk,
    List<Long> regionBytes,
    List<FamilyState> families,
    Map<String, Long> familyBytes,
    int storeFiles) {

  /** A family's settings as HBase holds them. */
  public record FamilyState(
      String name,
      String compression,
      String encoding,
      String bloom,
      int ttlSeconds,
      int maxVersions,
      int blockSize) {}

  public TableFootprint {
    regionBytes = List.copyOf(regionBytes);
    families = List.copyOf(families);
    familyBytes = Map.copyOf(familyBytes);
  }

  /** The largest region's share of the bytes on disk (0 for a table without any). */
  public double largestRegionShare() {
    long max = 0;
    for (long b : regionBytes) {
      max = Math.max(max, b);
    }
    return bytesOnDisk == 0 ? 0 : (double) max / bytesOnDisk;
  }

  /** Regions holding no store file byte (just created, or never reached by a key). */
  public int emptyRegions() {
    int n = 0;
    for (long b : regionBytes) {
      n += b == 0 ? 1 : 0;
    }
    return n;
  }

  /** Measures {@code table}; {@code conf} locates HBase's root directory. */
  public static TableFootprint measure(Connection connection, Configuration conf, TableName table) {
    try (Admin admin = connection.getAdmin()) {
      if (!admin.tableExists(table)) {
        return new TableFootprint(table, false, 0, 0, List.of(), List.of(), Map.of(), 0);
      }
      TableDescriptor descriptor = admin.getDescriptor(table);
      List<FamilyState> families = new ArrayList<>();
      for (ColumnFamilyDescriptor f : descriptor.getColumnFamilies()) {
        families.add(
            new FamilyState(
                f.getNameAsString(),
                f.getCompressionType().name(),
                f.getDataBlockEncoding().name(),
                f.getBloomFilterType().name(),
                f.getTimeToLive(),
                f.getMaxVersions(),
                f.getBlocksize()));
      }
      List<RegionInfo> regions = new ArrayList<>(admin.getRegions(table));
      regions.removeIf(r -> r.isSplitParent() || r.getReplicaId() != 0);
      regions.sort(RegionInfo.COMPARATOR);
      StoreFiles files = storeFiles(conf, table);
      List<Long> regionBytes = new ArrayList<>();
      long total = 0;
      for (RegionInfo r : regions) {
        long b = files.byRegion().getOrDefault(r.getEncodedName(), 0L);
        regionBytes.add(b);
        total += b;
      }
      return new TableFootprint(
          table,
          true,
          regions.size(),
          total,
          regionBytes,
          families,
          files.byFamily(),
          files.count());
    } catch (IOException e) {
      throw StorageException.of("measure table " + table, e);
    }
  }

  /** Store file bytes by encoded region name and by family, and how many files. */
  private record StoreFiles(Map<String, Long> byRegion, Map<String, Long> byFamily, int count) {}

  /**
   * Walks region/family/file under the table's directory: not region info, recovered edits or
   * anything hidden (a compaction's or flush's {@code .tmp} output).
   */
  private static StoreFiles storeFiles(Configuration conf, TableName table) throws IOException {
    Path tableDir = CommonFSUtils.getTableDir(CommonFSUtils.getRootDir(conf), table);
    FileSystem fs = tableDir.getFileSystem(conf);
    Map<String, Long> byRegion = new HashMap<>();
    Map<String, Long> byFamily = new java.util.TreeMap<>();
    int count = 0;
    if (!fs.exists(tableDir)) {
      return new StoreFiles(byRegion, byFamily, 0);
    }
    for (FileStatus region : fs.listStatus(tableDir)) {
      if (!region.isDirectory() || hidden(region)) {
        continue;
      }
      long bytes = 0;
      for (FileStatus family : fs.listStatus(region.getPath())) {
        String name = family.getPath().getName();
        if (!family.isDirectory() || hidden(family) || name.equals("recovered.edits")) {
          continue;
        }
        for (FileStatus file : fs.listStatus(family.getPath())) {
          if (file.isFile() && !hidden(file)) {
            bytes += file.getLen();
            byFamily.merge(name, file.getLen(), Long::sum);
            count++;
          }
        }
      }
      byRegion.put(region.getPath().getName(), bytes);
    }
    return new StoreFiles(byRegion, byFamily, count);
  }

  private static boolean hidden(FileStatus f) {
    return f.getPath().getName().startsWith(".");
  }
}
