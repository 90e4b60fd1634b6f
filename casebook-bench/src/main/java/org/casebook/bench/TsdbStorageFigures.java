package org.casebook.bench;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.CommonFSUtils;

/**
 * What {@code bench tsdb} asks HBase directly about both systems' data tables: whether OpenTSDB has
 * compacted its rows, a major compaction waited for, and the bytes of the HFiles.
 */
final class TsdbStorageFigures {
  private final Connection connection;
  private final Configuration configuration;

  TsdbStorageFigures(Connection connection, Configuration configuration) {
    this.connection = connection;
    this.configuration = configuration;
  }

  /**
   * Waits until OpenTSDB has compacted the finished hours it wrote: every row of its data table is
   * one cell (its compaction queue works every few seconds), at most {@code minutes}.
   */
  void awaitOpenTsdbCompaction(TableName table, int minutes) throws Exception {
    long deadline = System.nanoTime() + minutes * 60_000_000_000L;
    long rows = 0;
    long cells = 0;
    long previousExtra = -1;
    int unchangedScans = 0;
    while (System.nanoTime() < deadline) {
      rows = 0;
      cells = 0;
      try (Table t = connection.getTable(table);
          ResultScanner s =
              t.getScanner(
                  new Scan()
                      .setFilter(new org.apache.hadoop.hbase.filter.KeyOnlyFilter())
                      .setCaching(1000))) {
        for (Result r : s) {
          rows++;
          cells += r.size();
        }
      }
      // Done when every row is one cell, or the few left stop changing (a handful of rows
      // OpenTSDB does not requeue: they are reported below and counted as they are). Unchanged
      // over two intervals, not one: a queue between flushes can look settled for one.
      unchangedScans = cells - rows == previousExtra ? unchangedScans + 1 : 0;
      if (rows > 0 && (cells == rows || unchangedScans >= 2)) {
        if (cells != rows) {
          System.out.printf(
              Locale.ROOT, "OpenTSDB left %,d cells in %,d rows uncompacted%n", cells - rows, rows);
        }
        return;
      }
      previousExtra = cells - rows;
      Thread.sleep(3000);
    }
    System.out.printf(
        Locale.ROOT,
        "OpenTSDB left %,d cells in %,d rows uncompacted after %d minutes%n",
        cells - rows,
        rows,
        minutes);
  }

  /**
   * Flushes a table and major-compacts it, waiting until HBase reports it done: no compaction
   * running, one store file per region, and a newer last major compaction time.
   */
  double majorCompact(TableName table) throws Exception {
    long started = System.nanoTime();
    try (Admin admin = connection.getAdmin()) {
      admin.flush(table);
      long before = admin.getLastMajorCompactionTimestamp(table);
      admin.majorCompact(table);
      long deadline = System.nanoTime() + 600_000_000_000L;
      while (System.nanoTime() < deadline) {
        Thread.sleep(500);
        int regions = 0;
        int files = 0;
        for (org.apache.hadoop.hbase.ServerName server : admin.getRegionServers()) {
          for (org.apache.hadoop.hbase.RegionMetrics r : admin.getRegionMetrics(server, table)) {
            regions++;
            files += r.getStoreFileCount();
          }
        }
        if (admin.getCompactionState(table) == org.apache.hadoop.hbase.client.CompactionState.NONE
            && files <= regions
            && admin.getLastMajorCompactionTimestamp(table) > before) {
          break;
        }
      }
    }
    return (System.nanoTime() - started) / 1e9;
  }

  /** The bytes of a table's HFiles (after {@link #majorCompact}). */
  long storedBytes(TableName table) throws Exception {
    Configuration conf = configuration;
    org.apache.hadoop.fs.Path root = CommonFSUtils.getRootDir(conf);
    FileSystem fs = root.getFileSystem(conf);
    org.apache.hadoop.fs.Path dir = CommonFSUtils.getTableDir(root, table);
    // After a major compaction each store (region/family directory) has one live file, the
    // newest; the files it replaced stay beside it until HBase's discharger archives them
    // (every two minutes), so only the newest file of each store is counted.
    Map<String, org.apache.hadoop.fs.LocatedFileStatus> newest = new LinkedHashMap<>();
    org.apache.hadoop.fs.RemoteIterator<org.apache.hadoop.fs.LocatedFileStatus> files =
        fs.listFiles(dir, true);
    while (files.hasNext()) {
      org.apache.hadoop.fs.LocatedFileStatus f = files.next();
      String p = f.getPath().toString();
      // Store files only: not region info, recovered edits or temporary files.
      if (p.contains("/.")
          || p.contains("/recovered.edits/")
          || f.getPath().getName().startsWith(".")) {
        continue;
      }
      String store = f.getPath().getParent().toString();
      org.apache.hadoop.fs.LocatedFileStatus seen = newest.get(store);
      if (seen == null || f.getModificationTime() > seen.getModificationTime()) {
        newest.put(store, f);
      }
    }
    long bytes = 0;
    for (org.apache.hadoop.fs.LocatedFileStatus f : newest.values()) {
      bytes += f.getLen();
    }
    return bytes;
  }
}
