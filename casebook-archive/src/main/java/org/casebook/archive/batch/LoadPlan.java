package org.casebook.archive.batch;

import java.util.List;
import java.util.Objects;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.TableName;
import org.casebook.archive.BadRecords;
import org.casebook.archive.Layout;
import org.casebook.archive.Partitioning;

/**
 * One load of input files into an archive's data tables, as the import decided it.
 *
 * @param tables the data tables in the archive's order: user, status, status_index
 * @param layout the keys to write with
 * @param files the input files (Hadoop paths)
 * @param quarantine where bad files go, with a reason file each
 * @param work the bulk load's scratch directory on the job's file system, or null for a local one
 *     of its own under {@code scratch}
 * @param scratch local scratch space
 * @param attempts reads of a file before it is quarantined
 * @param holdBytes files up to this size are parsed once and held while checked; larger ones are
 *     read twice
 * @param partitioning how the bulk load's job sends rows to reducers
 * @param badRecords whether a file with bad records is quarantined whole or salvaged
 */
public record LoadPlan(
    List<TableName> tables,
    Layout layout,
    List<Path> files,
    Path quarantine,
    Path work,
    java.nio.file.Path scratch,
    int attempts,
    long holdBytes,
    Partitioning partitioning,
    BadRecords badRecords) {
  public LoadPlan {
    tables = List.copyOf(tables);
    Objects.requireNonNull(layout, "layout is null");
    files = List.copyOf(files);
    Objects.requireNonNull(quarantine, "quarantine is null");
    Objects.requireNonNull(scratch, "scratch is null");
    Objects.requireNonNull(partitioning, "partitioning is null");
    Objects.requireNonNull(badRecords, "badRecords is null");
    if (tables.size() != 3) {
      throw new IllegalArgumentException("an archive has three data tables, got " + tables);
    }
  }
}
