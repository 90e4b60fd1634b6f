package org.casebook.server;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.hadoop.hbase.TableName;
import org.casebook.core.CasebookSystem;
import org.casebook.core.HBaseRuntime;
import org.casebook.core.Json;
import org.casebook.core.PreconditionFailedException;
import org.casebook.core.backup.Backup;
import org.casebook.core.backup.BackupCatalog;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code casebook backup create|list|restore|export|import|delete}: HBase snapshots of systems. */
@Command(
    name = "backup",
    mixinStandardHelpOptions = true,
    description =
        "Back up whole systems as HBase snapshots (no copy when taken), restore them in place or"
            + " into another namespace, and copy them to or from another file system"
            + " (ExportSnapshot on MapReduce).",
    subcommands = {
      BackupCommand.Create.class,
      BackupCommand.ListBackups.class,
      BackupCommand.Restore.class,
      BackupCommand.Export.class,
      BackupCommand.Import.class,
      BackupCommand.Delete.class
    })
final class BackupCommand {

  private final List<CasebookSystem> systems;
  private final CliContext context;

  BackupCommand(List<CasebookSystem> systems, CliContext context) {
    this.systems = systems;
    this.context = context;
  }

  BackupCatalog catalog() {
    HBaseRuntime r = context.runtimeOnly();
    return new BackupCatalog(r.connection(), r.configuration());
  }

  /**
   * Runs one of the commands that change HBase (create, restore, import, delete) and records it in
   * the audit trail with its outcome, as a served admin request is: by {@code cli:<user>}.
   */
  <T> T audited(String what, java.util.function.Supplier<T> work) {
    String outcome = "failed";
    try {
      T result = work.get();
      outcome = "ok";
      return result;
    } catch (RuntimeException e) {
      outcome = "failed: " + e.getMessage();
      throw e;
    } finally {
      record(what, outcome);
    }
  }

  private void record(String what, String outcome) {
    try {
      org.casebook.core.access.AuditTable.recordNow(
          context.runtimeOnly().connection(),
          org.casebook.core.access.AuditTable.DEFAULT_NAME,
          new org.casebook.core.access.AuditEntry(
              java.time.Instant.now(),
              "cli:" + System.getProperty("user.name"),
              org.casebook.core.access.Caller.PLATFORM,
              org.casebook.core.access.Action.ADMIN,
              "backup " + what,
              outcome,
              "local"));
    } catch (RuntimeException e) {
      // The command's own outcome stands; the operator is told the trail lacks it.
      say("could not record this command in the audit trail: " + e.getMessage());
    }
  }

  /** The chosen systems' declared tables where the settings put them (all systems when none). */
  Map<String, List<TableName>> declared(List<String> chosen) {
    return context.declaredTables(chosen);
  }

  /**
   * Refuses work that is only safe while nothing else uses the tables, unless the operator said
   * {@code --online}: a {@code serve} owns this embedded HBase, or HBase is a cluster (where this
   * process cannot see who serves).
   */
  void checkNothingServes(boolean online, String what, String risk) {
    if (online) {
      return;
    }
    HBaseRuntime r = context.runtimeOnly();
    if (r.attached()) {
      throw new PreconditionFailedException(
          "another Casebook process serves this data directory ("
              + r.description()
              + "): "
              + what
              + " while it runs "
              + risk
              + "; stop it, or pass --online to go ahead");
    }
    if (r.mode() == HBaseRuntime.Mode.CLUSTER) {
      throw new PreconditionFailedException(
          "on a cluster this process cannot tell whether a serve uses these tables: "
              + what
              + " while one runs "
              + risk
              + "; stop them and pass --online");
    }
  }

  /** The address of the serve that owns this embedded data directory, if one runs. */
  java.util.Optional<java.net.URI> serveAddress() {
    HBaseRuntime r = context.runtimeOnly();
    if (!r.attached()) {
      return java.util.Optional.empty();
    }
    return ServeAddress.of(context.options().dataDir());
  }

  /** The map tasks of each table's copy, for export and import alike. */
  static final class Mappers {
    @Option(
        names = "--mappers",
        paramLabel = "N",
        defaultValue = "2",
        description = "Map tasks per table's copy (default ${DEFAULT-VALUE}).")
    int count;
  }

  static void say(String line) {
    System.err.println(line);
  }

  static void print(Backup b) {
    print(
        b.name(),
        b.created().toString(),
        b.tables().size(),
        b.systems(),
        b.bytes(),
        b.bytesFreedByDelete());
  }

  /** One backup's line, from its fields (a serve's answer gives them as JSON). */
  static void print(
      String name, String created, int tables, List<String> systems, long bytes, long freed) {
    System.out.printf(
        "%s  taken %s  %d table(s) of %s  refers to %s; deleting it frees %s%n",
        name,
        created,
        tables,
        String.join(", ", systems),
        BackupCatalog.readable(bytes),
        BackupCatalog.readable(freed));
  }

  @Command(
      name = "create",
      mixinStandardHelpOptions = true,
      description =
          "Take a backup of every table of the chosen systems (all when none is named): one"
              + " flushed HBase snapshot per table, the tables staying online. Beside a running"
              + " serve, the serve takes it, pausing each system's writes while its tables' snapshots"
              + " are taken.")
  static final class Create implements Callable<Integer> {
    @ParentCommand BackupCommand parent;

    @Parameters(
        arity = "0..1",
        paramLabel = "NAME",
        description = "The backup's name (default backup-<UTC date-time>).")
    String name;

    @Option(
        names = "--system",
        paramLabel = "SYSTEM",
        description = "A system to back up (repeatable; default every system).")
    List<String> systems = new ArrayList<>();

    @Option(
        names = "--online",
        description =
            "Take it here although a serve may be writing (on a cluster, or to skip asking the"
                + " serve of this data directory, which pauses its writes meanwhile): each"
                + " table's snapshot is consistent in itself, but a change that spans tables may"
                + " be in one snapshot and not another.")
    boolean online;

    @Option(
        names = "--token-file",
        paramLabel = "FILE",
        description =
            "The serve's write token (first line), when it has one and CASEBOOK_TOKEN is unset.")
    java.nio.file.Path tokenFile;

    @Option(
        names = "--ca-file",
        paramLabel = "PEM",
        description =
            "Trust the CA certificates in this PEM file when the serve speaks TLS (default: the"
                + " JDK's trust store); its certificate must name the address it is asked at.")
    java.nio.file.Path caFile;

    @Override
    public Integer call() {
      String backup = name != null ? name : BackupCatalog.defaultName();
      Map<String, List<TableName>> declared = parent.declared(systems);
      if (!online) {
        java.util.Optional<java.net.URI> serve = parent.serveAddress();
        if (serve.isPresent()) {
          say(
              "a serve owns this data directory: asking it ("
                  + serve.get()
                  + ") to take the backup");
          ServedBackup.take(serve.get(), backup, systems, tokenFile, caFile);
          return 0;
        }
      }
      BackupCatalog catalog = parent.catalog();
      catalog.checkNewName(backup);
      parent.checkNothingServes(
          online,
          "a backup taken",
          "may hold one table's part of a change and not another's (a post without its"
              + " timeline rows, an index row without its data)");
      long t0 = System.nanoTime();
      Backup b =
          parent.audited(
              "create " + backup,
              () -> catalog.create(backup, catalog.tablesOf(declared), BackupCommand::say));
      say(
          String.format(
              Locale.ROOT, "backup %s taken in %.1f s", b.name(), (System.nanoTime() - t0) / 1e9));
      print(b);
      return 0;
    }
  }

  @Command(
      name = "list",
      mixinStandardHelpOptions = true,
      description = "List every backup, oldest first, with its systems, tables and size.")
  static final class ListBackups implements Callable<Integer> {
    @ParentCommand BackupCommand parent;

    @Option(names = "--json", description = "Print JSON instead of text.")
    boolean json;

    @Override
    public Integer call() {
      List<Backup> all = parent.catalog().list();
      if (json) {
        System.out.println(Json.writePretty(Map.of("backups", all)));
      } else if (all.isEmpty()) {
        System.out.println("no backups");
      } else {
        all.forEach(BackupCommand::print);
      }
      return 0;
    }
  }

  @Command(
      name = "restore",
      mixinStandardHelpOptions = true,
      description =
          "Restore a backup in place (each system's tables offline together, restored, back"
              + " online; a fail-safe snapshot of each table first) or, with --as, clone it into"
              + " another namespace beside the live tables.")
  static final class Restore implements Callable<Integer> {
    @ParentCommand BackupCommand parent;

    @Parameters(paramLabel = "NAME", description = "The backup to restore.")
    String name;

    @Option(
        names = "--system",
        paramLabel = "SYSTEM",
        description = "A system of the backup to restore (repeatable; default all it holds).")
    List<String> systems = new ArrayList<>();

    @Option(
        names = "--as",
        paramLabel = "NAMESPACE",
        description =
            "Clone into this namespace instead (new tables; serve them with --set, e.g."
                + " tsdb.namespace=NAMESPACE, for systems with a namespace setting).")
    String as;

    @Option(
        names = "--online",
        description =
            "Restore in place although a serve may be using the tables: its requests fail while"
                + " they are offline, and what it holds in memory (caches, counters) is not"
                + " restored — restart it after.")
    boolean online;

    @Override
    public Integer call() {
      BackupCatalog catalog = parent.catalog();
      catalog.check(name, new LinkedHashSet<>(systems));
      if (as == null) {
        parent.checkNothingServes(
            online,
            "restoring in place",
            "takes its tables offline under it and leaves what it holds in memory as it was");
      }
      BackupCatalog.Restored r =
          parent.audited(
              "restore " + name + (as == null ? " in place" : " as " + as),
              () -> catalog.restore(name, new LinkedHashSet<>(systems), as, BackupCommand::say));
      for (BackupCatalog.SystemRestored s : r.systems()) {
        System.out.printf(
            Locale.ROOT,
            "%-10s %d table(s) %s, %s %.1f s%n",
            s.system(),
            s.tables().size(),
            as == null ? "restored in place" : "cloned into " + as,
            as == null ? "offline" : "in",
            s.offlineMillis() / 1000.0);
      }
      return 0;
    }
  }

  @Command(
      name = "export",
      mixinStandardHelpOptions = true,
      description =
          "Copy a backup to a directory or another file system (ExportSnapshot on MapReduce:"
              + " in this process with embedded HBase, on YARN with a cluster's configuration).")
  static final class Export implements Callable<Integer> {
    @ParentCommand BackupCommand parent;

    @Parameters(paramLabel = "NAME", description = "The backup to copy.")
    String name;

    @Option(
        names = "--to",
        required = true,
        paramLabel = "DIR|URI",
        description = "A local directory, file:///… or hdfs://…; it may hold other backups.")
    String to;

    @Mixin Mappers mappers;

    @Override
    public Integer call() {
      BackupCatalog.Copied c =
          parent.catalog().exportTo(name, to, mappers.count, BackupCommand::say);
      System.out.printf(
          Locale.ROOT,
          "exported %s: %d snapshot(s), %s, to %s in %.1f s%n",
          c.backup(),
          c.snapshots(),
          BackupCatalog.readable(c.bytes()),
          c.to(),
          c.millis() / 1000.0);
      return 0;
    }
  }

  @Command(
      name = "import",
      mixinStandardHelpOptions = true,
      description =
          "Copy backups exported earlier into this HBase (all found under --from, or NAME's);"
              + " then `backup restore` them.")
  static final class Import implements Callable<Integer> {
    @ParentCommand BackupCommand parent;

    @Parameters(
        arity = "0..1",
        paramLabel = "NAME",
        description = "Only this backup (default every backup found).")
    String name;

    @Option(
        names = "--from",
        required = true,
        paramLabel = "DIR|URI",
        description =
            "Where `backup export` copied them: a local directory, file:///… or hdfs://….")
    String from;

    @Mixin Mappers mappers;

    @Override
    public Integer call() {
      long t0 = System.nanoTime();
      List<Backup> imported =
          parent.audited(
              "import from " + from,
              () -> parent.catalog().importFrom(from, name, mappers.count, BackupCommand::say));
      say(String.format(Locale.ROOT, "imported in %.1f s", (System.nanoTime() - t0) / 1e9));
      imported.forEach(BackupCommand::print);
      return 0;
    }
  }

  @Command(
      name = "delete",
      mixinStandardHelpOptions = true,
      description = "Delete a backup's snapshots; HBase then removes the files only they kept.")
  static final class Delete implements Callable<Integer> {
    @ParentCommand BackupCommand parent;

    @Parameters(paramLabel = "NAME", description = "The backup to delete.")
    String name;

    @Override
    public Integer call() {
      parent.audited(
          "delete " + name,
          () -> {
            parent.catalog().delete(name);
            return name;
          });
      System.out.println("deleted backup " + name);
      return 0;
    }
  }
}
