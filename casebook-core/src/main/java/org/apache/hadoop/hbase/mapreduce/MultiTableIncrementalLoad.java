package org.apache.hadoop.hbase.mapreduce;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.mapreduce.Job;

/**
 * Casebook's bridge to HBase's own multi-table HFile job set-up. HBase 2.6 makes {@link
 * MultiTableHFileOutputFormat#configureIncrementalLoad} public but keeps its argument type ({@code
 * HFileOutputFormat2.TableInfo}) package-private, so it cannot be called from another package; this
 * class only builds that list, and reads HBase's composite keys apart (its accessors are protected
 * as well). It runs in the job driver, never in tasks.
 */
public final class MultiTableIncrementalLoad {
  private MultiTableIncrementalLoad() {}

  /**
   * Sets up {@code job} to write HFiles for all {@code tables} in one pass: total-order
   * partitioning over every region of every table, one reducer per region, per-family settings of
   * each table, and the output layout {@code out/namespace/table/family/}.
   */
  public static void configure(Job job, List<TableDescriptor> tables, List<RegionLocator> locators)
      throws IOException {
    if (tables.size() != locators.size()) {
      throw new IllegalArgumentException("one region locator per table");
    }
    List<HFileOutputFormat2.TableInfo> infos = new ArrayList<>();
    for (int i = 0; i < tables.size(); i++) {
      infos.add(new HFileOutputFormat2.TableInfo(tables.get(i), locators.get(i)));
    }
    MultiTableHFileOutputFormat.configureIncrementalLoad(job, infos);
  }

  /** The table name of HBase's composite key {@code table;row} (HBase keeps its own protected). */
  public static byte[] tableOf(byte[] composite) {
    return MultiTableHFileOutputFormat.getTableName(composite);
  }

  /** The row of HBase's composite key {@code table;row}. */
  public static byte[] rowOf(byte[] composite) {
    return MultiTableHFileOutputFormat.getSuffix(composite);
  }
}
