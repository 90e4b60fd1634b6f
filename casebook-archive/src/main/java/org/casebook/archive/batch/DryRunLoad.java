package org.casebook.archive.batch;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.util.Bytes;
import org.casebook.archive.ArchiveCellCodec;
import org.casebook.archive.ImportReport;
import org.casebook.archive.Layout;
import org.casebook.archive.LoadOutcome;
import org.casebook.archive.StatusRecord;
import org.casebook.archive.UserRecord;
import org.casebook.archive.wire.ArchiveReader;
import org.casebook.core.cli.Progress;

/**
 * A load that writes nothing: each file is read as the loaders read it (whole or salvaging, with
 * the same attempts), its records are turned into the cells a load would write, and the cells are
 * measured instead of written — no HBase write, no file moved, no rejects file. What it answers is
 * what the load would do, with the HFiles it would make.
 */
public final class DryRunLoad {
  /** A dry run's answer: the load's outcome as it would be, and the HFiles it would write. */
  public record Result(LoadOutcome outcome, ImportReport.Estimate estimate) {}

  private DryRunLoad() {}

  public static Result run(Configuration conf, LoadPlan plan, Progress progress)
      throws IOException {
    long t0 = System.nanoTime();
    Layout layout = plan.layout();
    Cells cells = new Cells(plan);
    long[] records = new long[2];
    long bytes = 0;
    int loaded = 0;
    long badReads = 0;
    long badNanos = 0;
    List<ImportReport.Skipped> skipped = new ArrayList<>();
    List<ImportReport.Salvaged> salvaged = new ArrayList<>();
    for (Path file : plan.files()) {
      progress.detail(file.getName());
      Map<String, Long> byReason = new TreeMap<>();
      ArchiveFileRead read =
          ArchiveFileRead.of(
              file.getFileSystem(conf),
              file,
              plan.attempts(),
              plan.holdBytes(),
              plan.badRecords(),
              rejected -> byReason.merge(rejected.reason(), 1L, Long::sum),
              new ArchiveReader.Sink() {
                @Override
                public void user(UserRecord user) {
                  cells.add(0, ArchiveCellCodec.userPut(layout, user));
                  records[0]++;
                }

                @Override
                public void status(StatusRecord status) {
                  List<Put> puts = ArchiveCellCodec.statusPuts(layout, status);
                  cells.add(1, puts.get(0));
                  cells.add(0, puts.get(1));
                  cells.add(2, puts.get(2));
                  records[1]++;
                }
              });
      if (read.failure().isPresent()) {
        badReads += read.reads();
        badNanos += read.nanos();
        skipped.add(
            new ImportReport.Skipped(
                file.toString(),
                read.failure().get(),
                plan.attempts(),
                new Path(plan.quarantine(), file.getName()).toString()));
        continue;
      }
      if (read.setAside() > 0) {
        salvaged.add(
            new ImportReport.Salvaged(
                file.toString(),
                read.setAside(),
                byReason,
                new Path(plan.quarantine(), RejectsFile.fileName(file.getName())).toString()));
      }
      loaded++;
      bytes += read.size();
      progress.advance(read.size());
    }
    double seconds = (System.nanoTime() - t0) / 1e9;
    Map<String, Double> phases = new LinkedHashMap<>();
    phases.put("read", seconds);
    LoadOutcome outcome =
        new LoadOutcome(
            loaded,
            skipped,
            salvaged,
            records[0],
            records[1],
            cells.count,
            bytes,
            0,
            0,
            badReads,
            badNanos / 1_000_000,
            phases,
            seconds);
    return new Result(outcome, cells.estimate());
  }

  /** The cells a load would write, measured: bytes, HFiles and regions per table. */
  private static final class Cells {
    private final List<String> tables = new ArrayList<>();
    private final boolean keyRule;
    private final Set<String> hfiles = new HashSet<>();
    private final List<Set<Integer>> regions = new ArrayList<>();
    private long count;
    private long bytes;

    Cells(LoadPlan plan) {
      for (var t : plan.tables()) {
        tables.add(t.getNameAsString());
        regions.add(new HashSet<>());
      }
      keyRule = plan.layout().keyRule();
    }

    void add(int table, Put put) {
      // With the key rule a row's first two bytes are its region id; without it, every row of a
      // table is counted in one region (the estimate cannot know the split points).
      int region = keyRule ? Bytes.toShort(put.getRow(), 0) & 0xFFFF : 0;
      regions.get(table).add(region);
      for (List<Cell> family : put.getFamilyCellMap().values()) {
        for (Cell c : family) {
          count++;
          bytes += c.getSerializedSize();
        }
        if (!family.isEmpty()) {
          hfiles.add(
              table
                  + "/"
                  + Bytes.toString(
                      family.get(0).getFamilyArray(),
                      family.get(0).getFamilyOffset(),
                      family.get(0).getFamilyLength())
                  + "/"
                  + region);
        }
      }
    }

    ImportReport.Estimate estimate() {
      Map<String, Integer> byTable = new TreeMap<>();
      for (int i = 0; i < tables.size(); i++) {
        byTable.put(tables.get(i), regions.get(i).size());
      }
      return new ImportReport.Estimate(bytes, hfiles.size(), byTable);
    }
  }
}
