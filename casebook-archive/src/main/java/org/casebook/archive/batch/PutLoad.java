package org.casebook.archive.batch;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.BufferedMutatorParams;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RetriesExhaustedWithDetailsException;
import org.casebook.archive.ArchiveCellCodec;
import org.casebook.archive.ImportReport;
import org.casebook.archive.Layout;
import org.casebook.archive.LoadOutcome;
import org.casebook.archive.StatusRecord;
import org.casebook.archive.UserRecord;
import org.casebook.archive.wire.ArchiveReader;
import org.casebook.core.SystemContext;
import org.casebook.core.cli.Progress;

/**
 * The put path, for comparison with the bulk load: each file is read completely before any of it is
 * written through {@link BufferedMutator}s ({@link ArchiveReader#readAllOrNothing}), so a bad file
 * writes nothing and is quarantined; or, salvaging, its good records are written and its bad ones
 * set aside ({@link ArchiveReader#readSalvaging}). The time includes flushing the tables'
 * memstores, so the data ends where a bulk load puts it: in HFiles. Reimporting writes the same
 * cells again (no duplicates).
 */
public final class PutLoad {
  private PutLoad() {}

  public static LoadOutcome run(SystemContext ctx, LoadPlan plan, Progress progress)
      throws IOException {
    Configuration conf = ctx.configuration();
    Layout layout = plan.layout();
    long t0 = System.nanoTime();
    long[] counts = new long[3];
    long bytes = 0;
    int loaded = 0;
    long badReads = 0;
    long badNanos = 0;
    List<ImportReport.Skipped> skipped = new ArrayList<>();
    double writeSeconds;
    try (Writers writers = new Writers(ctx.connection(), plan.tables())) {
      for (Path file : plan.files()) {
        progress.detail(file.getName());
        ArchiveFileRead read =
            ArchiveFileRead.of(
                file.getFileSystem(conf),
                file,
                plan.attempts(),
                plan.holdBytes(),
                plan.badRecords(),
                plan.quarantine(),
                new ArchiveReader.Sink() {
                  @Override
                  public void user(UserRecord user) throws IOException {
                    counts[2] += writers.user(layout, user);
                    counts[0]++;
                  }

                  @Override
                  public void status(StatusRecord status) throws IOException {
                    counts[2] += writers.status(layout, status);
                    counts[1]++;
                  }
                });
        if (read.failure().isPresent()) {
          badReads += read.reads();
          badNanos += read.nanos();
          skipped.add(
              Quarantine.move(
                  conf, file, plan.quarantine(), read.failure().get(), plan.attempts()));
          continue;
        }
        loaded++;
        bytes += read.size();
        progress.advance(read.size());
      }
      writers.flush();
      writeSeconds = (System.nanoTime() - t0) / 1e9;
      progress.detail("flushing memstores");
      flush(ctx.connection(), plan.tables());
    }
    double seconds = (System.nanoTime() - t0) / 1e9;
    Map<String, Double> phases = new LinkedHashMap<>();
    phases.put("write", writeSeconds);
    phases.put("memstoreFlush", seconds - writeSeconds);
    return new LoadOutcome(
        loaded,
        skipped,
        RejectsFile.salvaged(conf, plan.quarantine(), plan.files()),
        counts[0],
        counts[1],
        counts[2],
        bytes,
        0,
        0,
        badReads,
        badNanos / 1_000_000,
        phases,
        seconds);
  }

  /** Flushes the data tables' memstores to HFiles and waits for it. */
  private static void flush(Connection connection, List<TableName> tables) throws IOException {
    try (Admin admin = connection.getAdmin()) {
      for (TableName t : tables) {
        admin.flush(t);
      }
    }
  }

  /** Buffered writers of the three data tables; the first failure is raised on flush and close. */
  private static final class Writers implements AutoCloseable {
    private final BufferedMutator users;
    private final BufferedMutator statuses;
    private final BufferedMutator index;
    private final List<RetriesExhaustedWithDetailsException> failures =
        new CopyOnWriteArrayList<>();

    /** {@code tables}: user, status, status_index. */
    Writers(Connection connection, List<TableName> tables) throws IOException {
      users = open(connection, tables.get(0));
      statuses = open(connection, tables.get(1));
      index = open(connection, tables.get(2));
    }

    private BufferedMutator open(Connection connection, TableName t) throws IOException {
      return connection.getBufferedMutator(
          new BufferedMutatorParams(t)
              .writeBufferSize(8L << 20)
              .listener((e, m) -> failures.add(e)));
    }

    /** Returns the number of cells sent. */
    int user(Layout layout, UserRecord u) throws IOException {
      Put p = ArchiveCellCodec.userPut(layout, u);
      users.mutate(p);
      return p.size();
    }

    /** Returns the number of cells sent. */
    int status(Layout layout, StatusRecord s) throws IOException {
      List<Put> puts = ArchiveCellCodec.statusPuts(layout, s);
      statuses.mutate(puts.get(0));
      users.mutate(puts.get(1));
      index.mutate(puts.get(2));
      return puts.get(0).size() + puts.get(1).size() + puts.get(2).size();
    }

    /** Sends everything buffered and waits for it: the put path's "flushed" point. */
    void flush() throws IOException {
      users.flush();
      statuses.flush();
      index.flush();
      if (!failures.isEmpty()) {
        throw failures.get(0);
      }
    }

    @Override
    public void close() throws IOException {
      users.close();
      statuses.close();
      index.close();
      if (!failures.isEmpty()) {
        throw failures.get(0);
      }
    }
  }
}
