package org.casebook.server;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.client.Connection;
import org.casebook.core.schema.FamilySpec;
import org.casebook.core.schema.SchemaManager;
import org.casebook.core.schema.TableFootprint;
import org.casebook.core.schema.TableSpec;

/**
 * The operator's one view of the schema: each table as declared (key, split points, families) and,
 * when HBase is at hand, as it is (regions, bytes on disk, the largest region's share, the
 * families' settings and where they differ from the declared ones). {@code schema show} prints it,
 * {@code /api/schema} serves it.
 */
final class SchemaView {
  private SchemaView() {}

  record Family(
      String name,
      int versions,
      String ttl,
      String bloom,
      int blockKiB,
      String compression,
      String encoding,
      boolean inMemory,
      String memstoreCompaction) {
    /**
     * {@code schemas}: what creates the tables (its codec substitutions applied), or null for the
     * codec as declared.
     */
    static Family of(FamilySpec f, SchemaManager schemas) {
      return new Family(
          f.name(),
          f.maxVersions(),
          f.ttlSeconds() == FamilySpec.FOREVER ? "forever" : f.ttlSeconds() + "s",
          f.bloom().name(),
          f.blockSize() / 1024,
          (schemas == null ? f.compression() : schemas.compressionOf(f)).name(),
          f.dataBlockEncoding() == null ? "NONE" : f.dataBlockEncoding().name(),
          f.inMemory(),
          f.inMemoryCompaction() == null ? null : f.inMemoryCompaction().name());
    }
  }

  /**
   * A table as it is; {@code drift}: one line per family setting that differs from the declared one
   * ({@code schema ensure} brings compression, bloom and encoding in line).
   */
  record Live(
      int regions,
      long bytesOnDisk,
      double largestRegionShare,
      int emptyRegions,
      List<Long> regionBytes,
      List<String> drift) {}

  record Table(
      String system,
      String name,
      String key,
      int declaredRegions,
      String splits,
      List<Family> families,
      Live live) {}

  static List<Table> declared(String system, List<TableSpec> specs) {
    List<Table> out = new ArrayList<>();
    for (TableSpec t : specs) {
      out.add(table(system, t, null, null));
    }
    return out;
  }

  static List<Table> live(
      String system, List<TableSpec> specs, Connection connection, Configuration conf) {
    List<Table> out = new ArrayList<>();
    SchemaManager schemas = new SchemaManager(connection);
    for (TableSpec t : specs) {
      TableFootprint f = TableFootprint.measure(connection, conf, t.name());
      out.add(table(system, t, f.exists() ? live(t, f, schemas) : null, schemas));
    }
    return out;
  }

  private static Table table(String system, TableSpec t, Live live, SchemaManager schemas) {
    return new Table(
        system,
        t.name().getNameAsString(),
        t.keyDoc(),
        t.splits().regionCount(),
        t.splits().regionCount() > 1 ? t.splits().description() : "none",
        t.families().stream().map(f -> Family.of(f, schemas)).toList(),
        live);
  }

  private static Live live(TableSpec spec, TableFootprint f, SchemaManager schemas) {
    List<String> drift = new ArrayList<>();
    Map<String, TableFootprint.FamilyState> actual = new java.util.HashMap<>();
    f.families().forEach(s -> actual.put(s.name(), s));
    for (FamilySpec declared : spec.families()) {
      TableFootprint.FamilyState s = actual.get(declared.name());
      if (s == null) {
        drift.add("family " + declared.name() + " is missing");
        continue;
      }
      Family d = Family.of(declared, schemas);
      differs(drift, declared.name(), "compression", d.compression(), s.compression());
      differs(drift, declared.name(), "bloom", d.bloom(), s.bloom());
      if (declared.dataBlockEncoding() != null) {
        differs(drift, declared.name(), "encoding", d.encoding(), s.encoding());
      }
      differs(
          drift,
          declared.name(),
          "ttl",
          String.valueOf(declared.ttlSeconds()),
          String.valueOf(s.ttlSeconds()));
    }
    return new Live(
        f.regions(),
        f.bytesOnDisk(),
        f.largestRegionShare(),
        f.emptyRegions(),
        f.regionBytes(),
        drift);
  }

  private static void differs(
      List<String> drift, String family, String what, String declared, String actual) {
    if (!declared.equals(actual)) {
      drift.add(family + ": " + what + " is " + actual + ", declared " + declared);
    }
  }

  static void print(List<Table> tables, java.io.PrintStream out) {
    for (Table t : tables) {
      out.printf(
          "  %s  (%s)%n    key: %s%n",
          t.name(),
          t.declaredRegions() > 1
              ? t.declaredRegions() + " regions at creation, " + t.splits()
              : "1 region at creation",
          t.key());
      if (t.live() != null) {
        Live l = t.live();
        out.printf(
            Locale.ROOT,
            "    now: %d region(s), %s on disk, largest region %.0f %%%s%n",
            l.regions(),
            bytes(l.bytesOnDisk()),
            100 * l.largestRegionShare(),
            l.emptyRegions() > 0 && l.bytesOnDisk() > 0
                ? ", " + l.emptyRegions() + " region(s) without data"
                : "");
        l.drift().forEach(d -> out.println("    differs: " + d + " (run `schema ensure`)"));
      }
      for (Family f : t.families()) {
        out.printf(
            "    family %-4s versions=%d ttl=%s bloom=%s block=%dK compression=%s encoding=%s%s%s%n",
            f.name(),
            f.versions(),
            f.ttl(),
            f.bloom(),
            f.blockKiB(),
            f.compression(),
            f.encoding(),
            f.inMemory() ? " in-memory" : "",
            f.memstoreCompaction() == null ? "" : " memstore-compaction=" + f.memstoreCompaction());
      }
    }
  }

  static String bytes(long b) {
    if (b < 1024) {
      return b + " B";
    }
    if (b < 1024 * 1024) {
      return String.format(Locale.ROOT, "%.1f KiB", b / 1024.0);
    }
    if (b < 1024L * 1024 * 1024) {
      return String.format(Locale.ROOT, "%.1f MiB", b / 1024.0 / 1024);
    }
    return String.format(Locale.ROOT, "%.2f GiB", b / 1024.0 / 1024 / 1024);
  }
}
