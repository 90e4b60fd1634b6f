package org.casebook.core.backup;

import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.snapshot.ExportSnapshot;
import org.apache.hadoop.hbase.util.CommonFSUtils;
import org.casebook.core.ConflictException;
import org.casebook.core.InvalidInputException;
import org.casebook.core.NotFoundException;
import org.casebook.core.PreconditionFailedException;
import org.casebook.core.StorageException;
import org.casebook.core.Threads;
import org.casebook.core.batch.BatchJobException;
import org.casebook.core.batch.MapReduceJobs;

/**
 * Copies of backups between HBase's root directory and another file system, one HBase {@code
 * ExportSnapshot} MapReduce job per snapshot (the LocalJobRunner with embedded HBase, YARN on a
 * cluster). The copy keeps HBase's layout ({@code .hbase-snapshot/} and {@code archive/}), so a
 * directory holds any number of backups and reads back with the same tool.
 */
final class SnapshotCopies {
  /** Room kept free beyond the bytes copied: manifests, and a file system's own reserve. */
  private static final long MARGIN_BYTES = 64L << 20;

  private final Configuration conf;

  SnapshotCopies(Configuration conf) {
    this.conf = conf;
  }

  BackupCatalog.Copied export(
      Backup backup, String target, int mappers, Consumer<String> progress) {
    checkMappers(mappers);
    Path to = location(target, "to");
    checkReachable(to, "to");
    Path root = rootDir();
    long t0 = System.nanoTime();
    List<String> copied = new ArrayList<>();
    FileSystem fs = null;
    try {
      fs = to.getFileSystem(conf);
      for (Backup.Table t : backup.tables()) {
        if (fs.exists(snapshotDir(to, t.snapshot()))) {
          throw new ConflictException(
              to + " already holds backup " + backup.name() + " (snapshot " + t.snapshot() + ")");
        }
      }
      checkRoom(fs, to, backup.bytes(), "the backup");
      progress.accept(
          "exporting "
              + backup.tables().size()
              + " table(s) to "
              + to
              + ": "
              + MapReduceJobs.where(conf)
              + ", one job per table"
              + (MapReduceJobs.isLocal(conf) ? "" : ", side by side"));
      Map<String, Backup.Table> bySnapshot = new LinkedHashMap<>();
      backup.tables().forEach(t -> bySnapshot.put(t.snapshot(), t));
      copyAll(
          List.copyOf(bySnapshot.keySet()),
          null,
          to,
          mappers,
          snapshot -> {
            Backup.Table t = bySnapshot.get(snapshot);
            synchronized (copied) {
              copied.add(snapshot);
              progress.accept(
                  String.format(
                      "exported %d/%d: %s (%s)",
                      copied.size(),
                      backup.tables().size(),
                      t.table(),
                      BackupCatalog.readable(t.bytes())));
            }
          });
      return new BackupCatalog.Copied(
          backup.name(),
          root.toString(),
          to.toString(),
          copied.size(),
          backup.bytes(),
          (System.nanoTime() - t0) / 1_000_000);
    } catch (IOException | RuntimeException e) {
      // A half-exported backup would make the same export refuse to run again: its snapshots'
      // manifests go (files copied under archive/ stay, and are reused by no one).
      for (String s : copied) {
        try {
          fs.delete(snapshotDir(to, s), true);
        } catch (IOException undo) {
          e.addSuppressed(undo);
        }
      }
      if (e instanceof IOException io) {
        throw StorageException.of("export backup " + backup.name() + " to " + to, io);
      }
      throw (RuntimeException) e;
    }
  }

  /**
   * Imports the backups under {@code source} (only {@code name}'s when given) and returns their
   * names; on a failure half-way, {@code undo} is given the snapshots imported so far.
   */
  List<String> importFrom(
      String source,
      String name,
      Set<String> existing,
      int mappers,
      Consumer<String> progress,
      Consumer<List<String>> undo) {
    checkMappers(mappers);
    Path from = location(source, "from");
    checkReachable(from, "from");
    List<String> copied = new ArrayList<>();
    try {
      FileSystem fs = from.getFileSystem(conf);
      Path snapshots = new Path(from, ".hbase-snapshot");
      if (!fs.isDirectory(snapshots)) {
        throw new NotFoundException(from + " holds no exported backup (no .hbase-snapshot/)");
      }
      List<String> found = new ArrayList<>();
      List<String> backups = new ArrayList<>();
      for (FileStatus s : fs.listStatus(snapshots)) {
        SnapshotNames.Parsed p = SnapshotNames.parse(s.getPath().getName()).orElse(null);
        if (s.isDirectory() && p != null && (name == null || p.backup().equals(name))) {
          found.add(s.getPath().getName());
          if (!backups.contains(p.backup())) {
            backups.add(p.backup());
          }
        }
      }
      if (found.isEmpty()) {
        throw new NotFoundException(
            from + " holds no backup" + (name == null ? "" : " named " + name));
      }
      for (String b : backups) {
        if (existing.contains(b)) {
          throw new ConflictException(
              "backup " + b + " exists here: delete it before importing another of that name");
        }
      }
      Path root = rootDir();
      FileSystem rootFs = root.getFileSystem(conf);
      long bytes = fs.getContentSummary(from).getLength();
      // Embedded, HBase's own files share that disk: the copy must leave their floor free too.
      long floor =
          rootFs instanceof org.apache.hadoop.fs.LocalFileSystem
              ? org.casebook.core.DiskSpaceGuard.minFreeBytes(conf)
              : 0;
      checkRoom(rootFs, root, bytes + floor, "the copy under " + from + " (and the disk's floor)");
      progress.accept(
          "importing "
              + found.size()
              + " table(s) into "
              + root
              + ": "
              + MapReduceJobs.where(conf)
              + ", one job per table"
              + (MapReduceJobs.isLocal(conf) ? "" : ", side by side"));
      copyAll(
          List.copyOf(found),
          from,
          root,
          mappers,
          snapshot -> {
            synchronized (copied) {
              copied.add(snapshot);
              progress.accept(
                  String.format("imported %d/%d: %s", copied.size(), found.size(), snapshot));
            }
          });
      return backups;
    } catch (IOException | RuntimeException e) {
      // A backup with some of its tables would restore only those: none of it stays.
      if (!copied.isEmpty()) {
        try {
          undo.accept(copied);
        } catch (RuntimeException undoFailed) {
          e.addSuppressed(undoFailed);
        }
      }
      if (e instanceof IOException io) {
        throw StorageException.of("import backups from " + from, io);
      }
      throw (RuntimeException) e;
    }
  }

  /**
   * HBase's root directory, where snapshots live; refused when only Hadoop's default names it (a
   * client given only {@code --zk}), which would copy into this machine's {@code /tmp}.
   */
  Path rootDir() {
    if (!configured(conf, "hbase.rootdir")) {
      throw new PreconditionFailedException(
          "HBase's root directory (hbase.rootdir) is not configured here: point HBASE_CONF_DIR at"
              + " the cluster's configuration, or pass --hbase hbase.rootdir=hdfs://…");
    }
    try {
      return CommonFSUtils.getRootDir(conf);
    } catch (IOException e) {
      throw StorageException.of("read hbase.rootdir", e);
    }
  }

  /** True when {@code key} was set by someone, not only by a {@code *-default.xml}. */
  static boolean configured(Configuration conf, String key) {
    String[] sources = conf.getPropertySources(key);
    if (sources == null) {
      return conf.get(key) != null;
    }
    for (String source : sources) {
      if (!source.endsWith("-default.xml")) {
        return true;
      }
    }
    return false;
  }

  /**
   * A local directory is only where this machine's tasks can reach it: with MapReduce on YARN the
   * copies run on other machines, which need a shared file system.
   */
  private void checkReachable(Path location, String field) {
    if (!MapReduceJobs.isLocal(conf) && "file".equals(location.toUri().getScheme())) {
      throw new InvalidInputException(
          field,
          "MapReduce runs on YARN here, so the copy's tasks run on other machines: give a shared"
              + " file system (hdfs://…), not the local "
              + location);
    }
  }

  /**
   * At most this many copy jobs at once on a cluster: each is an application with its own master.
   */
  private static final int MAX_PARALLEL_JOBS = 4;

  /**
   * Copies every snapshot, calling {@code done} as each finishes. In this process (the
   * LocalJobRunner) one after another; on YARN side by side, since each job spends most of its time
   * starting containers. Every job runs to its end before a failure is thrown, so {@code done} has
   * been told of exactly the snapshots copied.
   */
  private void copyAll(
      List<String> snapshots, Path from, Path to, int mappers, Consumer<String> done)
      throws IOException {
    if (MapReduceJobs.isLocal(conf) || snapshots.size() < 2) {
      for (String snapshot : snapshots) {
        copy(snapshot, from, to, mappers);
        done.accept(snapshot);
      }
      return;
    }
    ExecutorService pool =
        Executors.newFixedThreadPool(
            Math.min(MAX_PARALLEL_JOBS, snapshots.size()), Threads.daemon("snapshot-copy"));
    try {
      List<Future<?>> jobs = new ArrayList<>();
      for (String snapshot : snapshots) {
        jobs.add(
            pool.submit(
                () -> {
                  copy(snapshot, from, to, mappers);
                  done.accept(snapshot);
                  return null;
                }));
      }
      Exception first = null;
      for (Future<?> job : jobs) {
        try {
          job.get();
        } catch (ExecutionException e) {
          Exception cause = e.getCause() instanceof Exception c ? c : e;
          if (first == null) {
            first = cause;
          } else {
            first.addSuppressed(cause);
          }
        } catch (InterruptedException e) {
          pool.shutdownNow();
          throw StorageException.interrupted("copy snapshots", e);
        }
      }
      if (first instanceof IOException io) {
        throw io;
      }
      if (first instanceof RuntimeException re) {
        throw re;
      }
      if (first != null) {
        throw new IllegalStateException("a snapshot copy failed", first);
      }
    } finally {
      pool.shutdown();
    }
  }

  /** Runs one {@code ExportSnapshot} job; {@code from} null means this HBase's root directory. */
  private void copy(String snapshot, Path from, Path to, int mappers) throws IOException {
    Configuration job = new Configuration(conf);
    MapReduceJobs.prepareTasks(job);
    ExportSnapshot tool = new ExportSnapshot();
    tool.setConf(job);
    List<String> args = new ArrayList<>(List.of("-snapshot", snapshot, "-copy-to", to.toString()));
    if (from != null) {
      args.addAll(List.of("-copy-from", from.toString()));
    }
    args.addAll(List.of("-mappers", Integer.toString(mappers)));
    Path source = from != null ? from : rootDir();
    if ("file".equals(source.toUri().getScheme()) && "file".equals(to.toUri().getScheme())) {
      // Between two local directories ExportSnapshot's checksum check fails on every file (the
      // local file system's checksum differs between HBase's file and its copy); name and length
      // are still checked.
      args.add("-no-checksum-verify");
    }
    int rc;
    try {
      rc = tool.run(args.toArray(String[]::new));
    } catch (Exception e) {
      throw new BatchJobException(
          MapReduceJobs.where(job) + ": ExportSnapshot of " + snapshot + " failed: " + e, e);
    }
    if (rc != 0) {
      throw new BatchJobException(
          MapReduceJobs.where(job)
              + ": ExportSnapshot of "
              + snapshot
              + " to "
              + to
              + " exited with "
              + rc
              + " (its log says why)",
          null);
    }
  }

  /**
   * A location as given: a URI with a scheme ({@code hdfs://…}, {@code file:///…}) as is, a plain
   * path as a local directory.
   */
  static Path location(String given, String field) {
    InvalidInputException.check(
        given != null && !given.isBlank(), field, "a directory or file system URI is required");
    URI uri;
    try {
      uri = new URI(given);
    } catch (java.net.URISyntaxException e) {
      uri = null;
    }
    if (uri != null && uri.getScheme() != null && uri.getScheme().length() > 1) {
      return new Path(uri);
    }
    return new Path(java.nio.file.Path.of(given).toAbsolutePath().normalize().toUri());
  }

  /**
   * Refuses, before any copy, a target with less room than {@code bytes} and a margin. A local
   * directory that does not exist yet is measured at its nearest existing parent.
   */
  private static void checkRoom(FileSystem fs, Path target, long bytes, String what)
      throws IOException {
    if (bytes < 0) {
      return; // unsized: the copy itself fails when the space runs out
    }
    Path measured = target;
    while (measured.getParent() != null && !fs.exists(measured)) {
      measured = measured.getParent();
    }
    long free = fs.getStatus(measured).getRemaining();
    if (free < bytes + MARGIN_BYTES) {
      throw new PreconditionFailedException(
          target
              + " has "
              + BackupCatalog.readable(free)
              + " free; "
              + what
              + " needs "
              + BackupCatalog.readable(bytes)
              + " and a margin of "
              + BackupCatalog.readable(MARGIN_BYTES));
    }
  }

  private static Path snapshotDir(Path root, String snapshot) {
    return new Path(new Path(root, ".hbase-snapshot"), snapshot);
  }

  private static void checkMappers(int mappers) {
    InvalidInputException.check(
        mappers >= 1 && mappers <= 1000, "mappers", "mappers must be 1..1000: " + mappers);
  }
}
