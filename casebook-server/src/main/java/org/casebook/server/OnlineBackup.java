package org.casebook.server;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.TableName;
import org.casebook.core.InvalidInputException;
import org.casebook.core.Platform;
import org.casebook.core.backup.Backup;
import org.casebook.core.backup.BackupCatalog;
import org.casebook.core.http.HttpRequest;
import org.casebook.core.http.HttpResponse;
import org.casebook.core.schema.TableSpec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code POST /api/backups}: a backup taken by the serving process, each system's writes paused
 * while its tables' snapshots are taken, so every change that spans tables or regions is in it
 * whole or not at all.
 */
final class OnlineBackup {
  private static final Logger LOG = LoggerFactory.getLogger(OnlineBackup.class);

  /** How long the writes in flight may take to finish before a system's pause gives up. */
  static final Duration DRAIN = Duration.ofSeconds(20);

  /** The request: both fields optional (every served system; {@code backup-<UTC time>}). */
  record Request(String name, List<String> systems) {}

  private final Map<String, List<TableSpec>> served;
  private final Platform platform;

  OnlineBackup(Map<String, List<TableSpec>> served, Platform platform) {
    this.served = served;
    this.platform = platform;
  }

  HttpResponse create(HttpRequest req) {
    Request r = req.body().length == 0 ? new Request(null, null) : req.body(Request.class);
    String name = r.name() != null ? r.name() : BackupCatalog.defaultName();
    List<String> chosen =
        r.systems() == null || r.systems().isEmpty()
            ? List.copyOf(served.keySet())
            : List.copyOf(new LinkedHashSet<>(r.systems()));
    Map<String, List<TableName>> declared = new LinkedHashMap<>();
    for (String s : chosen) {
      List<TableSpec> specs = served.get(s);
      if (specs == null) {
        throw new InvalidInputException(
            "systems", "no system " + s + " is served here; served: " + served.keySet());
      }
      declared.put(s, new ArrayList<>(specs.stream().map(TableSpec::name).toList()));
    }
    BackupCatalog catalog =
        new BackupCatalog(platform.runtime().connection(), platform.runtime().configuration());
    catalog.checkNewName(name);
    long t0 = System.nanoTime();
    Backup b =
        catalog.create(
            name,
            catalog.tablesOf(declared),
            system -> platform.writeGate(system).pause(DRAIN),
            line -> LOG.info("backup {}: {}", name, line));
    LOG.info("backup {} taken in {} ms", name, (System.nanoTime() - t0) / 1_000_000);
    return HttpResponse.created(b);
  }
}
