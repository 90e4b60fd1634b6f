package org.casebook.bench;

import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeSet;
import org.apache.hadoop.hbase.ClusterMetrics;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.CompactionState;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.regionserver.ConstantSizeRegionSplitPolicy;
import org.casebook.archive.ArchiveCellCodec;
import org.casebook.archive.ArchiveService;
import org.casebook.archive.ArchiveTables;
import org.casebook.archive.ImportMode;
import org.casebook.archive.ImportReport;
import org.casebook.archive.ImportRequest;
import org.casebook.archive.Layout;
import org.casebook.archive.Partitioning;
import org.casebook.archive.StatusRecord;
import org.casebook.archive.UserRecord;
import org.casebook.archive.wire.ArchiveReader;
import org.casebook.core.LocalFileException;
import org.casebook.core.LocalFiles;
import org.casebook.core.StorageException;
import org.casebook.core.SystemContext;
import org.casebook.core.cli.Progress;
import org.casebook.core.schema.SchemaManager;
import org.casebook.core.schema.SplitPoints;

/**
 * The experiment's archives, each in a namespace of its own: created through the archive's service
 * with the experiment's region settings, loaded batch by batch through its imports, and watched
 * with HBase's admin API until the splits and compactions a load caused are over.
 */
final class ArchiveExperimentTables {
  /** The archive's data tables (its README's table list); {@code meta} is not timed. */

  /**
   * Table setting honoured per region: compact a store after a bulk load when it has enough files.
   */
  private static final String COMPACT_AFTER_BULKLOAD = "hbase.compaction.after.bulkload.enable";

  /** Split points of the three data tables. */
  record KeySplits(SplitPoints user, SplitPoints status, SplitPoints index) {}

  private final SystemContext ctx;
  private final Path scratch;
  private final int attempts;
  private int batches;

  ArchiveExperimentTables(SystemContext ctx, Path scratch, int attempts) {
    this.ctx = Objects.requireNonNull(ctx, "ctx is null");
    this.scratch = Objects.requireNonNull(scratch, "scratch is null");
    this.attempts = attempts;
  }

  /**
   * Drops {@code namespace} if it exists and creates its archive as {@code tables} says, with the
   * experiment's region settings: the seed's region size limit, scaled down, under a constant-size
   * split policy as in HBase 0.94, and a compaction check after each bulk load.
   */
  ArchiveService recreate(String namespace, ArchiveTables tables, long regionBytes) {
    drop(namespace);
    ArchiveService archive = ArchiveService.inNamespace(ctx, namespace);
    archive.prepare(
        tables.withTableSettings(
            Map.of(
                TableDescriptorBuilder.MAX_FILESIZE,
                Long.toString(regionBytes),
                TableDescriptorBuilder.SPLIT_POLICY,
                ConstantSizeRegionSplitPolicy.class.getName(),
                COMPACT_AFTER_BULKLOAD,
                "true")));
    return archive;
  }

  void drop(String namespace) {
    new SchemaManager(ctx.connection()).dropNamespace(namespace);
  }

  /**
   * One import of {@code files} into {@code namespace}'s archive: the archive imports directories,
   * so the batch is a directory of links to the files, removed afterwards.
   */
  ImportReport load(
      ArchiveService archive,
      String namespace,
      List<Path> files,
      ImportMode mode,
      Partitioning partitioning,
      int regions) {
    Path batch = scratch.resolve("batches").resolve(namespace + "-" + ++batches);
    try {
      Files.createDirectories(batch);
      for (Path f : files) {
        link(f, batch.resolve(f.getFileName()));
      }
      return archive.importFiles(
          request(batch, namespace, mode, regions).withPartitioning(partitioning),
          Progress.silent());
    } catch (IOException e) {
      throw LocalFileException.of("link the input files into", batch, e);
    } finally {
      delete(batch);
    }
  }

  /**
   * An import of {@code input} into {@code namespace}, its bad files in a quarantine of its own.
   */
  ImportRequest request(Path input, String namespace, ImportMode mode, int regions) {
    return ImportRequest.local(input, mode)
        .withRegions(regions)
        .withQuarantine(quarantineOf(namespace))
        .withAttempts(attempts);
  }

  Path quarantineOf(String namespace) {
    return scratch.resolve("quarantine-" + namespace);
  }

  private static void link(Path file, Path link) throws IOException {
    try {
      Files.createLink(link, file);
    } catch (UnsupportedOperationException | FileSystemException noHardLinks) {
      Files.copy(file, link);
    }
  }

  /**
   * Case 2's split points for each size: the quantiles of the row keys of the first {@code size /
   * usersPerFile} files in the plain layout (no key rule), every user, status and index row of
   * them. Each file is parsed once; the sizes share their first files.
   */
  Map<Integer, KeySplits> quantileSplits(
      List<Path> files, List<Integer> sizes, int usersPerFile, int regions) {
    Layout plain = new Layout(1, false);
    List<byte[]> users = new ArrayList<>();
    List<byte[]> statuses = new ArrayList<>();
    List<byte[]> index = new ArrayList<>();
    Map<Integer, KeySplits> out = new LinkedHashMap<>();
    int read = 0;
    for (int size : new TreeSet<>(sizes)) {
      for (; read < size / usersPerFile; read++) {
        plainKeys(files.get(read), plain, users, statuses, index);
      }
      out.put(
          size,
          new KeySplits(
              SplitPoints.quantiles(users, regions),
              SplitPoints.quantiles(statuses, regions),
              SplitPoints.quantiles(index, regions)));
    }
    return out;
  }

  /**
   * The user, status and index rows of {@code file} in {@code layout}, through the archive's codec.
   */
  private static void plainKeys(
      Path file, Layout layout, List<byte[]> users, List<byte[]> statuses, List<byte[]> index) {
    try {
      Optional<String> failure =
          ArchiveReader.readAllOrNothing(
              () -> Files.newInputStream(file),
              Files.size(file),
              1,
              0,
              new ArchiveReader.Sink() {
                @Override
                public void user(UserRecord user) {
                  users.add(ArchiveCellCodec.userPut(layout, user).getRow());
                }

                @Override
                public void status(StatusRecord status) {
                  List<Put> puts = ArchiveCellCodec.statusPuts(layout, status);
                  statuses.add(puts.get(0).getRow());
                  index.add(puts.get(2).getRow());
                }
              });
      if (failure.isPresent()) {
        throw new IllegalStateException(
            "the experiment's generated input " + file + " is bad: " + failure.get());
      }
    } catch (IOException e) {
      throw LocalFileException.of("read", file, e);
    }
  }

  private List<TableName> dataTables(String namespace) {
    return ArchiveService.inNamespace(ctx, namespace).dataTables();
  }

  /** The regions of {@code namespace}'s data tables. */
  int regionCount(String namespace) {
    try (Admin admin = ctx.connection().getAdmin()) {
      int n = 0;
      for (TableName t : dataTables(namespace)) {
        n += admin.getRegions(t).size();
      }
      return n;
    } catch (IOException e) {
      throw StorageException.of("count the regions of " + namespace, e);
    }
  }

  /**
   * Waits until the tables have no compaction running, no region in transition and a stable region
   * count, seen on two polls in a row; returns when that quiet began (the confirming poll is not
   * part of the work). A compaction HBase requests after a bulk load is registered before the
   * load's RPC returns, so the first poll already sees it.
   */
  long awaitQuiet(String namespace) {
    long deadline = System.nanoTime() + 600_000_000_000L;
    int quietPolls = 0;
    int lastRegions = regionCount(namespace);
    long quietSince = 0;
    try (Admin admin = ctx.connection().getAdmin()) {
      while (quietPolls < 2) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException(
              "tables of " + namespace + " did not settle within 10 minutes");
        }
        long polled = System.nanoTime();
        boolean busy =
            !admin
                .getClusterMetrics(EnumSet.of(ClusterMetrics.Option.REGIONS_IN_TRANSITION))
                .getRegionStatesInTransition()
                .isEmpty();
        int regions = 0;
        for (TableName t : dataTables(namespace)) {
          busy |= admin.getCompactionState(t) != CompactionState.NONE;
          regions += admin.getRegions(t).size();
        }
        busy |= regions != lastRegions;
        lastRegions = regions;
        if (busy) {
          quietPolls = 0;
        } else if (quietPolls++ == 0) {
          quietSince = polled;
        }
        if (quietPolls < 2) {
          Thread.sleep(250);
        }
      }
    } catch (IOException e) {
      throw StorageException.of("watch the tables of " + namespace + " settle", e);
    } catch (InterruptedException e) {
      throw StorageException.interrupted("wait for the tables of " + namespace + " to settle", e);
    }
    return quietSince;
  }

  static void delete(Path path) {
    try {
      LocalFiles.deleteRecursively(path);
    } catch (IOException e) {
      throw LocalFileException.of("delete", path, e);
    }
  }
}
