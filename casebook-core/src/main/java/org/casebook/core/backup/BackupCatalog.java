package org.casebook.core.backup;

import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.NamespaceDescriptor;
import org.apache.hadoop.hbase.NamespaceNotFoundException;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.SnapshotDescription;
import org.apache.hadoop.hbase.client.SnapshotType;
import org.apache.hadoop.hbase.shaded.protobuf.ProtobufUtil;
import org.apache.hadoop.hbase.snapshot.SnapshotInfo;
import org.casebook.core.ConflictException;
import org.casebook.core.InvalidInputException;
import org.casebook.core.NotFoundException;
import org.casebook.core.StorageException;
import org.casebook.core.WriteGate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Backups of whole systems as HBase snapshots: take one of every table of the chosen systems, list
 * them, restore them in place or clone them into another namespace, delete them, and copy them to
 * and from another file system ({@link SnapshotCopies}, HBase's {@code ExportSnapshot} on
 * MapReduce). A snapshot costs no copy when taken: it refers to the table's files, which HBase
 * keeps in its archive once the table no longer uses them.
 *
 * <p>Every operation checks what it can before it changes anything (the name, the systems, the
 * target namespace, the space) and undoes what it made when it fails half-way, except an in-place
 * restore: that one may be rerun, and converges on the backup.
 */
public final class BackupCatalog {
  private static final Logger LOG = LoggerFactory.getLogger(BackupCatalog.class);

  private static final Pattern NAMESPACE = Pattern.compile("[A-Za-z0-9_]{1,128}");

  private final Connection connection;
  private final Configuration conf;

  public BackupCatalog(Connection connection, Configuration conf) {
    this.connection = Objects.requireNonNull(connection, "connection is null");
    this.conf = Objects.requireNonNull(conf, "conf is null");
  }

  /** What a restore did, per system: its tables and how long they were offline. */
  public record Restored(String backup, String namespace, List<SystemRestored> systems) {
    public Restored {
      systems = List.copyOf(systems);
    }
  }

  /**
   * One system's part of a restore: the tables as restored and how long they were unavailable
   * (disabled or not yet cloned).
   */
  public record SystemRestored(String system, List<String> tables, long offlineMillis) {
    public SystemRestored {
      tables = List.copyOf(tables);
    }
  }

  /** A backup's copy to or from another file system. */
  public record Copied(
      String backup, String from, String to, int snapshots, long bytes, long millis) {}

  /**
   * Every table each system keeps: those it declares ({@code declared}, system → tables) and the
   * undeclared tables in its namespaces (such as the archive's data tables, made by an import). An
   * undeclared table goes to the first system whose namespace holds it.
   */
  public Map<String, List<TableName>> tablesOf(Map<String, List<TableName>> declared) {
    Set<TableName> claimed = new LinkedHashSet<>();
    declared.values().forEach(claimed::addAll);
    Map<String, List<TableName>> out = new LinkedHashMap<>();
    try (Admin admin = connection.getAdmin()) {
      for (Map.Entry<String, List<TableName>> e : declared.entrySet()) {
        List<TableName> tables = new ArrayList<>();
        for (TableName t : e.getValue()) {
          if (admin.tableExists(t)) {
            tables.add(t);
          }
        }
        Set<String> namespaces = new LinkedHashSet<>();
        e.getValue().forEach(t -> namespaces.add(t.getNamespaceAsString()));
        for (String ns : namespaces) {
          if (ns.equals(NamespaceDescriptor.DEFAULT_NAMESPACE_NAME_STR)) {
            continue; // shared by everyone's tests and tools: only declared tables count there
          }
          TableName[] inNamespace;
          try {
            inNamespace = admin.listTableNamesByNamespace(ns);
          } catch (NamespaceNotFoundException absent) {
            continue;
          }
          for (TableName t : inNamespace) {
            if (claimed.add(t)) {
              tables.add(t);
            }
          }
        }
        out.put(e.getKey(), List.copyOf(tables));
      }
    } catch (IOException e) {
      throw StorageException.of("list the systems' tables", e);
    }
    return out;
  }

  /**
   * Checks that {@code name} can name a new backup: a valid name no backup has (invalid input, a
   * conflict).
   */
  public void checkNewName(String name) {
    SnapshotNames.checkBackup(name);
    try (Admin admin = connection.getAdmin()) {
      List<SnapshotDescription> existing = admin.listSnapshots(SnapshotNames.ofBackup(name));
      if (!existing.isEmpty()) {
        throw new ConflictException(
            "backup "
                + name
                + " exists (taken "
                + Instant.ofEpochMilli(existing.get(0).getCreationTime())
                + "): delete it or choose another name");
      }
    } catch (IOException e) {
      throw StorageException.of("read backup " + name, e);
    }
  }

  /**
   * Backup {@code name}, checked to hold every one of {@code systems} (not found; invalid {@code
   * system}).
   */
  public Backup check(String name, Set<String> systems) {
    Backup b = find(name, false);
    Set<String> held = new LinkedHashSet<>(b.systems());
    for (String s : systems) {
      InvalidInputException.check(
          held.contains(s),
          "system",
          "backup " + name + " holds " + String.join(", ", held) + "; not " + s);
    }
    return b;
  }

  /**
   * Takes backup {@code name} of {@code tables} (system → tables, in the order to take them): one
   * flushed snapshot per table. A name already taken is a conflict; on a failure the snapshots
   * taken so far are deleted.
   */
  public Backup create(
      String name, Map<String, List<TableName>> tables, Consumer<String> progress) {
    return create(name, tables, system -> () -> {}, progress);
  }

  /**
   * Takes backup {@code name} of {@code tables} (by system), each system's writes held back by
   * {@code pauseOf} while its tables' snapshots are taken, so a change that spans its tables or
   * regions is in the backup whole or not at all.
   */
  public Backup create(
      String name,
      Map<String, List<TableName>> tables,
      Function<String, WriteGate.Pause> pauseOf,
      Consumer<String> progress) {
    checkNewName(name);
    InvalidInputException.check(
        tables.values().stream().anyMatch(l -> !l.isEmpty()), "system", "no tables to back up");
    List<String> taken = new ArrayList<>();
    try (Admin admin = connection.getAdmin()) {
      int total = tables.values().stream().mapToInt(List::size).sum();
      for (Map.Entry<String, List<TableName>> e : tables.entrySet()) {
        if (e.getValue().isEmpty()) {
          continue;
        }
        long paused = System.nanoTime();
        try (WriteGate.Pause pause = pauseOf.apply(e.getKey())) {
          for (TableName t : e.getValue()) {
            String snapshot = SnapshotNames.snapshot(name, e.getKey(), t);
            long t0 = System.nanoTime();
            admin.snapshot(new SnapshotDescription(snapshot, t, SnapshotType.FLUSH));
            taken.add(snapshot);
            progress.accept(
                String.format(
                    "snapshot %d/%d: %s (%s) in %.1f s",
                    taken.size(), total, t.getNameAsString(), e.getKey(), seconds(t0)));
          }
        }
        progress.accept(
            String.format(
                "%s: %d table(s) in %.1f s, its writes held meanwhile",
                e.getKey(), e.getValue().size(), seconds(paused)));
      }
    } catch (IOException | RuntimeException e) {
      undo(taken, e);
      if (e instanceof IOException io) {
        throw StorageException.of("take backup " + name, io);
      }
      throw (RuntimeException) e;
    }
    return get(name);
  }

  private void deleteSnapshots(List<String> snapshots) {
    try (Admin admin = connection.getAdmin()) {
      for (String s : snapshots) {
        admin.deleteSnapshot(s);
      }
    } catch (IOException e) {
      throw StorageException.of("delete snapshots " + snapshots, e);
    }
  }

  private void undo(List<String> snapshots, Exception cause) {
    try {
      deleteSnapshots(snapshots);
    } catch (StorageException e) {
      cause.addSuppressed(e);
    }
  }

  private static final java.time.format.DateTimeFormatter DEFAULT_NAME =
      java.time.format.DateTimeFormatter.ofPattern(
              "'backup-'yyyyMMdd-HHmmss", java.util.Locale.ROOT)
          .withZone(java.time.ZoneOffset.UTC);

  /** The name of a backup taken now when none is given: {@code backup-<UTC date-time>}. */
  public static String defaultName() {
    return DEFAULT_NAME.format(Instant.now());
  }

  /** Every backup, oldest first. */
  public List<Backup> list() {
    try (Admin admin = connection.getAdmin()) {
      return group(admin.listSnapshots(SnapshotNames.ofAll()), true);
    } catch (IOException e) {
      throw StorageException.of("list backups", e);
    }
  }

  /** Backup {@code name}, with its sizes; not found when there is none. */
  public Backup get(String name) {
    return find(name, true);
  }

  /**
   * Backup {@code name}; sized only when asked, since sizing reads the file list of every snapshot
   * HBase holds.
   */
  private Backup find(String name, boolean sized) {
    SnapshotNames.checkBackup(name);
    try (Admin admin = connection.getAdmin()) {
      List<Backup> found = group(admin.listSnapshots(SnapshotNames.ofBackup(name)), sized);
      if (found.isEmpty()) {
        throw new NotFoundException("no backup named " + name);
      }
      return found.get(0);
    } catch (IOException e) {
      throw StorageException.of("read backup " + name, e);
    }
  }

  private List<Backup> group(List<SnapshotDescription> snapshots, boolean wanted) {
    Map<String, List<Backup.Table>> byBackup = new TreeMap<>();
    Map<String, long[]> sizes = new TreeMap<>();
    // Which archived files each snapshot shares with others: a backup frees only what no other
    // snapshot (another backup's, a fail-safe one) refers to.
    Map<org.apache.hadoop.fs.Path, Integer> references = null;
    if (wanted && !snapshots.isEmpty() && SnapshotCopies.configured(conf, "hbase.rootdir")) {
      try {
        references =
            SnapshotInfo.getSnapshotsFilesMap(
                conf, new AtomicLong(), new AtomicLong(), new AtomicLong());
      } catch (IOException | RuntimeException e) {
        // Sizes come from HBase's root directory, which a client of a cluster may not reach.
        LOG.warn("cannot size backups from {}: {}", conf.get("hbase.rootdir"), e.toString());
      }
    }
    boolean sized = references != null;
    for (SnapshotDescription d : snapshots) {
      SnapshotNames.Parsed p = SnapshotNames.parse(d.getName()).orElse(null);
      if (p == null) {
        continue;
      }
      long bytes = -1;
      long freed = -1;
      if (sized) {
        try {
          SnapshotInfo.SnapshotStats stats =
              SnapshotInfo.getSnapshotStats(
                  conf, ProtobufUtil.createHBaseProtosSnapshotDesc(d), references);
          bytes = stats.getStoreFilesSize();
          freed = stats.getNonSharedArchivedStoreFilesSize();
        } catch (IOException | RuntimeException e) {
          LOG.warn("cannot size snapshot {}: {}", d.getName(), e.toString());
          sized = false;
        }
      }
      byBackup
          .computeIfAbsent(p.backup(), k -> new ArrayList<>())
          .add(
              new Backup.Table(
                  p.system(),
                  p.table().getNameAsString(),
                  d.getName(),
                  Instant.ofEpochMilli(d.getCreationTime()),
                  bytes));
      long[] sum = sizes.computeIfAbsent(p.backup(), k -> new long[2]);
      sum[0] += bytes;
      sum[1] += freed;
    }
    List<Backup> out = new ArrayList<>();
    for (Map.Entry<String, List<Backup.Table>> e : byBackup.entrySet()) {
      List<Backup.Table> tables = new ArrayList<>(e.getValue());
      tables.sort(java.util.Comparator.comparing(Backup.Table::created));
      long[] sum = sizes.get(e.getKey());
      out.add(
          new Backup(
              e.getKey(),
              tables.get(0).created(),
              tables,
              sized ? sum[0] : -1,
              sized ? sum[1] : -1));
    }
    out.sort(java.util.Comparator.comparing(Backup::created).thenComparing(Backup::name));
    return out;
  }

  /** Deletes backup {@code name}'s snapshots; not found when there is none. */
  public void delete(String name) {
    Backup b = find(name, false);
    try (Admin admin = connection.getAdmin()) {
      for (Backup.Table t : b.tables()) {
        admin.deleteSnapshot(t.snapshot());
      }
    } catch (IOException e) {
      throw StorageException.of("delete backup " + name, e);
    }
  }

  /**
   * Restores {@code systems} of backup {@code name} (all of them when empty). In place ({@code
   * asNamespace} null): each system's tables are disabled together, restored and enabled together,
   * so none of its readers sees some tables restored and others not; a table dropped since is
   * cloned back. Into {@code asNamespace}: each table is cloned under that namespace, which must
   * not hold a table of the same name; the backup must then hold one namespace's tables.
   */
  public Restored restore(
      String name, Set<String> systems, String asNamespace, Consumer<String> progress) {
    Backup b = check(name, systems);
    Map<String, List<Backup.Table>> bySystem = new LinkedHashMap<>();
    for (Backup.Table t : b.tables()) {
      if (systems.isEmpty() || systems.contains(t.system())) {
        bySystem.computeIfAbsent(t.system(), k -> new ArrayList<>()).add(t);
      }
    }
    return asNamespace == null
        ? restoreInPlace(name, bySystem, progress)
        : cloneInto(name, bySystem, asNamespace, progress);
  }

  private Restored restoreInPlace(
      String name, Map<String, List<Backup.Table>> bySystem, Consumer<String> progress) {
    List<SystemRestored> done = new ArrayList<>();
    try (Admin admin = connection.getAdmin()) {
      for (Map.Entry<String, List<Backup.Table>> e : bySystem.entrySet()) {
        long t0 = System.nanoTime();
        List<TableName> disabled = new ArrayList<>();
        List<String> restored = new ArrayList<>();
        try {
          for (Backup.Table t : e.getValue()) {
            TableName table = TableName.valueOf(t.table());
            if (admin.tableExists(table) && admin.isTableEnabled(table)) {
              admin.disableTable(table);
              disabled.add(table);
            }
          }
          for (Backup.Table t : e.getValue()) {
            TableName table = TableName.valueOf(t.table());
            if (admin.tableExists(table)) {
              // A fail-safe snapshot of the table as it was is taken first and kept if this fails.
              admin.restoreSnapshot(t.snapshot(), true);
              if (!disabled.contains(table)) {
                disabled.add(table); // disabled before the restore: a restored table is served
              }
            } else {
              ensureNamespace(admin, table.getNamespaceAsString());
              admin.cloneSnapshot(t.snapshot(), table);
            }
            restored.add(t.table());
          }
        } finally {
          for (TableName t : disabled) {
            if (admin.isTableDisabled(t)) {
              admin.enableTable(t);
            }
          }
        }
        long millis = (System.nanoTime() - t0) / 1_000_000;
        progress.accept(
            String.format(
                "restored %s: %d table(s), offline %.1f s",
                e.getKey(), restored.size(), millis / 1000.0));
        done.add(new SystemRestored(e.getKey(), restored, millis));
      }
    } catch (IOException e) {
      throw StorageException.of(
          "restore backup "
              + name
              + " (restored so far: "
              + done.stream().map(SystemRestored::system).toList()
              + "; running the same restore again finishes it)",
          e);
    }
    return new Restored(name, null, done);
  }

  private Restored cloneInto(
      String name,
      Map<String, List<Backup.Table>> bySystem,
      String namespace,
      Consumer<String> progress) {
    InvalidInputException.check(
        NAMESPACE.matcher(namespace).matches(),
        "as",
        "a namespace is 1 to 128 letters, digits or '_': " + namespace);
    Set<String> sources = new LinkedHashSet<>();
    bySystem
        .values()
        .forEach(
            l -> l.forEach(t -> sources.add(TableName.valueOf(t.table()).getNamespaceAsString())));
    InvalidInputException.check(
        sources.size() == 1,
        "as",
        "the chosen tables are in namespaces "
            + String.join(", ", sources)
            + ": clone one system at a time (--system)");
    List<TableName> made = new ArrayList<>();
    List<SystemRestored> done = new ArrayList<>();
    boolean madeNamespace = false;
    try (Admin admin = connection.getAdmin()) {
      for (List<Backup.Table> tables : bySystem.values()) {
        for (Backup.Table t : tables) {
          TableName target = retarget(t, namespace);
          if (admin.tableExists(target)) {
            throw new ConflictException(
                "table "
                    + target.getNameAsString()
                    + " exists: clone into a namespace without the backup's tables");
          }
        }
      }
      madeNamespace = ensureNamespace(admin, namespace);
      for (Map.Entry<String, List<Backup.Table>> e : bySystem.entrySet()) {
        long t0 = System.nanoTime();
        List<String> cloned = new ArrayList<>();
        for (Backup.Table t : e.getValue()) {
          TableName target = retarget(t, namespace);
          admin.cloneSnapshot(t.snapshot(), target);
          made.add(target);
          cloned.add(target.getNameAsString());
        }
        long millis = (System.nanoTime() - t0) / 1_000_000;
        progress.accept(
            String.format(
                "cloned %s into %s: %d table(s) in %.1f s",
                e.getKey(), namespace, cloned.size(), millis / 1000.0));
        done.add(new SystemRestored(e.getKey(), cloned, millis));
      }
    } catch (IOException | RuntimeException e) {
      dropClones(made, madeNamespace ? namespace : null, e);
      if (e instanceof IOException io) {
        throw StorageException.of("clone backup " + name + " into " + namespace, io);
      }
      throw (RuntimeException) e;
    }
    return new Restored(name, namespace, done);
  }

  private static TableName retarget(Backup.Table t, String namespace) {
    return TableName.valueOf(namespace, TableName.valueOf(t.table()).getQualifierAsString());
  }

  /** True when it created {@code namespace}. */
  private static boolean ensureNamespace(Admin admin, String namespace) throws IOException {
    try {
      admin.getNamespaceDescriptor(namespace);
      return false;
    } catch (NamespaceNotFoundException absent) {
      admin.createNamespace(NamespaceDescriptor.create(namespace).build());
      return true;
    }
  }

  private void dropClones(List<TableName> made, String namespace, Exception cause) {
    try (Admin admin = connection.getAdmin()) {
      for (TableName t : made) {
        if (admin.tableExists(t)) {
          if (admin.isTableEnabled(t)) {
            admin.disableTable(t);
          }
          admin.deleteTable(t);
        }
      }
      if (namespace != null) {
        admin.deleteNamespace(namespace);
      }
    } catch (IOException e) {
      cause.addSuppressed(e);
    }
  }

  /**
   * Copies backup {@code name} to {@code target} (a directory, {@code file:///…} or {@code
   * hdfs://…}), checking first that the target holds none of its snapshots and has room for it.
   */
  public Copied exportTo(String name, String target, int mappers, Consumer<String> progress) {
    return new SnapshotCopies(conf).export(get(name), target, mappers, progress);
  }

  /**
   * Copies the backups found under {@code source} (or only {@code name}'s when not null) into this
   * HBase; a backup of the same name here is a conflict. Returns the backups as imported.
   */
  public List<Backup> importFrom(
      String source, String name, int mappers, Consumer<String> progress) {
    if (name != null) {
      SnapshotNames.checkBackup(name);
    }
    Set<String> existing = new LinkedHashSet<>();
    try (Admin admin = connection.getAdmin()) {
      for (Backup b : group(admin.listSnapshots(SnapshotNames.ofAll()), false)) {
        existing.add(b.name());
      }
    } catch (IOException e) {
      throw StorageException.of("list backups", e);
    }
    List<String> imported =
        new SnapshotCopies(conf)
            .importFrom(source, name, existing, mappers, progress, this::deleteSnapshots);
    return imported.stream().map(this::get).toList();
  }

  private static double seconds(long t0) {
    return (System.nanoTime() - t0) / 1e9;
  }

  /** Bytes for people: KB, MB or GB (decimal), or "size unknown" for -1. */
  public static String readable(long bytes) {
    if (bytes < 0) {
      return "size unknown";
    }
    if (bytes < 1_000_000) {
      return String.format(java.util.Locale.ROOT, "%.1f KB", bytes / 1e3);
    }
    if (bytes < 1_000_000_000) {
      return String.format(java.util.Locale.ROOT, "%.1f MB", bytes / 1e6);
    }
    return String.format(java.util.Locale.ROOT, "%.2f GB", bytes / 1e9);
  }
}
