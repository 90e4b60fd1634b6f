package org.casebook.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.io.compress.Compression;
import org.apache.hadoop.hbase.util.CompressionTest;
import org.casebook.core.CasebookSystem;
import org.casebook.core.HBaseRuntime;
import org.casebook.core.InvalidInputException;
import org.casebook.core.LocalFileException;
import org.casebook.core.LocalFiles;
import org.casebook.core.Platform;
import org.casebook.core.RuntimeSettings;
import org.casebook.core.StorageException;
import org.casebook.core.SystemContext;
import org.casebook.core.schema.SchemaManager;
import org.casebook.core.schema.TableSpec;
import picocli.CommandLine.Option;

/**
 * {@code casebook bench storage}: what each codec makes of every table of every system, on the
 * system's own generator data ({@link ConsoleData}, loaded through its Java API). HBase runs
 * embedded on a scratch directory of its own, deleted at the end, so no data of the operator's is
 * read or written. Each table with data is copied once per codec ({@link StorageCopies}: bytes on
 * disk, write rate, Gets, scan), and the codec its figures support is named ({@link
 * StorageChoice}); PostgreSQL 16's bytes for trails' records are measured beside them.
 */
final class StorageBenchmark {
  /** The copies' namespace, dropped at the end. */
  static final String NAMESPACE = "casebook_storage";

  private static final long SAMPLE_SEED = 17;

  /**
   * HBase 2.6's table flush as a master procedure (FlushTableProcedureV2), off: a flush asked for
   * while the region was flushing on its own (weibo's inbox of 1.4 million cells filled the default
   * 128 MB memstore during a copy) failed on the region server, and the master's procedure then
   * waited for a report that never came, until the client gave up after ten minutes. Off, {@code
   * Admin.flush} runs the flush as HBase 2.5 did (the region servers' flush-table procedure);
   * {@link StorageCopies#MEMSTORE_FLUSH_BYTES} keeps the copies from flushing on their own at all.
   */
  static final String FLUSH_PROCEDURE_V2 = "hbase.flush.procedure.enabled";

  /** The command-line options of {@code bench storage}. */
  static final class Options {
    @Option(
        names = "--codecs",
        paramLabel = "CODEC",
        split = ",",
        defaultValue = "NONE,GZ,LZ4,SNAPPY,ZSTD",
        description =
            "Codecs compared, NONE among them: each ratio is to NONE (default ${DEFAULT-VALUE}).")
    List<String> codecs;

    @Option(
        names = "--reads",
        paramLabel = "N",
        defaultValue = "2000",
        description = "Timed Gets of sampled rows per table and codec (default ${DEFAULT-VALUE}).")
    int reads;

    @Option(
        names = "--rounds",
        paramLabel = "N",
        defaultValue = "1",
        description =
            "Measurements of every codec per table, each round in a rotated order (default"
                + " ${DEFAULT-VALUE}); medians, Gets pooled.")
    int rounds;

    @Option(
        names = "--scale",
        paramLabel = "N",
        defaultValue = "1",
        description =
            "Each generator's size as a multiple of its default (bench console's data; default"
                + " ${DEFAULT-VALUE}).")
    int scale;

    @Option(
        names = "--systems",
        paramLabel = "NAME",
        split = ",",
        defaultValue = "trails,weibo,archive,tsdb,docs,frontier,banknote",
        description = "The systems whose tables are measured (default all: ${DEFAULT-VALUE}).")
    List<String> systems;

    @Option(
        names = "--no-postgres",
        description = "Leave out PostgreSQL's bytes for trails' records.")
    boolean noPostgres;

    @Option(
        names = "--work",
        paramLabel = "DIR",
        defaultValue = "bench-work/storage",
        description =
            "Where the run's scratch directory (embedded HBase, generated files; deleted at the"
                + " end) and the unpacked PostgreSQL binaries go (default ${DEFAULT-VALUE}).")
    Path work;

    /** The codecs named, in order; a name HBase does not know is invalid input. */
    List<Compression.Algorithm> algorithms() {
      List<Compression.Algorithm> out = new ArrayList<>();
      for (String name : codecs) {
        Compression.Algorithm a = codec(name.trim());
        InvalidInputException.check(
            !out.contains(a), "codecs", "--codecs names " + a.name() + " twice");
        out.add(a);
      }
      InvalidInputException.check(
          out.contains(Compression.Algorithm.NONE),
          "codecs",
          "--codecs must include NONE: every ratio is to NONE's figures");
      InvalidInputException.check(
          out.size() >= 2, "codecs", "--codecs must name a codec besides NONE");
      return out;
    }

    static Compression.Algorithm codec(String name) {
      for (Compression.Algorithm a : Compression.Algorithm.values()) {
        if (a.name().equalsIgnoreCase(name)) {
          return a;
        }
      }
      throw new InvalidInputException(
          "codecs",
          "--codecs: no codec '"
              + name
              + "' (HBase's are "
              + String.join(
                  ", ", Arrays.stream(Compression.Algorithm.values()).map(Enum::name).toList())
              + ")");
    }

    void validate() {
      algorithms();
      InvalidInputException.check(
          reads >= 10 && reads <= 1_000_000, "reads", "--reads must be 10..1000000");
      InvalidInputException.check(rounds >= 1 && rounds <= 20, "rounds", "--rounds must be 1..20");
      InvalidInputException.check(scale >= 1 && scale <= 100, "scale", "--scale must be 1..100");
      InvalidInputException.check(!systems.isEmpty(), "systems", "--systems names no system");
      for (String s : systems) {
        InvalidInputException.check(
            ConsoleData.SYSTEMS.contains(s),
            "systems",
            "--systems: no system '"
                + s
                + "' (there are "
                + String.join(", ", ConsoleData.SYSTEMS)
                + ")");
      }
    }

    Map<String, Object> toJson() {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("codecs", algorithms().stream().map(Enum::name).toList());
      m.put("reads", reads);
      m.put("rounds", rounds);
      m.put("scale", scale);
      m.put("systems", systems);
      m.put("postgres", !noPostgres);
      return m;
    }
  }

  /** One codec's figures for a table over every round: medians, the Gets pooled. */
  record CodecFigures(
      String codec,
      long bytes,
      Map<String, Long> familyBytes,
      int files,
      long cells,
      long cellBytes,
      double copySeconds,
      double flushSeconds,
      double writeCellsPerSecond,
      double writeMegabytesPerSecond,
      Latency gets,
      double scanRowsPerSecond,
      double scanMegabytesPerSecond,
      List<StorageCopies.Copy> rounds) {}

  /** A table with data, every codec measured, and the choice. */
  record TableFigures(
      String system,
      StorageCopies.Source source,
      long records,
      List<CodecFigures> codecs,
      StorageChoice.Choice choice) {
    CodecFigures codec(String name) {
      return codecs.stream().filter(c -> c.codec().equals(name)).findFirst().orElseThrow();
    }
  }

  private final Options options;
  private final List<CasebookSystem> systems;

  /** {@code systems}: those on the class path (the session's). */
  StorageBenchmark(Options options, List<CasebookSystem> systems) {
    options.validate();
    this.options = options;
    this.systems = systems;
  }

  Map<String, Object> run() throws Exception {
    long started = System.nanoTime();
    List<Compression.Algorithm> codecs = options.algorithms();
    Path run = scratchDirectory();
    StorageReport report;
    try {
      report = run(run, codecs);
    } finally {
      LocalFiles.deleteRecursively(run);
    }
    double seconds = (System.nanoTime() - started) / 1e9;
    System.out.println();
    System.out.print(report.render());
    System.out.printf(Locale.ROOT, "%nrun time %.0f s%n", seconds);
    Map<String, Object> json = report.json();
    json.put("seconds", seconds);
    return json;
  }

  private Path scratchDirectory() {
    Path run =
        options
            .work
            .toAbsolutePath()
            .resolve(
                "run-"
                    + LocalDateTime.now(ZoneId.systemDefault())
                        .format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
    try {
      return Files.createDirectories(run);
    } catch (IOException e) {
      throw LocalFileException.of("create", run, e);
    }
  }

  private StorageReport run(Path run, List<Compression.Algorithm> codecs) throws Exception {
    Path data = run.resolve("data");
    try (HBaseRuntime runtime =
            HBaseRuntime.start(
                RuntimeSettings.embedded(data)
                    .forLongRunning()
                    .withOverrides(Map.of(FLUSH_PROCEDURE_V2, "false")));
        Platform platform = Platform.create(runtime, data)) {
      System.err.printf(
          Locale.ROOT,
          "HBase: %s, ready in %.1f s%n",
          runtime.description(),
          runtime.startupMillis() / 1000.0);
      checkAvailable(codecs);
      Map<String, List<TableSpec>> declared = new LinkedHashMap<>();
      for (String name : options.systems) {
        CasebookSystem system = system(name);
        SystemContext ctx = platform.contextFor(system.descriptor());
        declared.put(name, system.tables(ctx.settings()));
      }
      new SchemaManager(runtime.connection())
          .ensureAll(declared.values().stream().flatMap(List::stream).toList());
      System.err.printf(
          Locale.ROOT, "loading %s's generator data (scale %d)…%n", options.systems, options.scale);
      Path generated = run.resolve("generated");
      List<ConsoleData.Loaded> loaded =
          ConsoleData.load(
              name -> platform.contextFor(system(name).descriptor()),
              generated,
              System.err,
              options.scale,
              List.copyOf(options.systems));
      List<String> undeclared = new ArrayList<>();
      Map<String, List<TableName>> tables = tables(runtime, declared, undeclared);
      flush(runtime, tables);
      List<TableFigures> measured = new ArrayList<>();
      List<String> empty = new ArrayList<>();
      measure(runtime, codecs, tables, loaded, measured, empty);
      StoragePostgres.Sizes postgres = null;
      if (!options.noPostgres && options.systems.contains("trails")) {
        System.err.println("PostgreSQL: loading trails' records…");
        postgres =
            StoragePostgres.measure(
                options.work.toAbsolutePath(),
                ConsoleFeedData.trailsLog(generated.resolve("trails")));
      }
      return new StorageReport(options, codecs, loaded, measured, empty, undeclared, postgres);
    }
  }

  /**
   * Each system's tables: those it declares, and those its loading created in their namespaces
   * besides (archive's data tables come with its first import), into {@code undeclared}.
   */
  private static Map<String, List<TableName>> tables(
      HBaseRuntime runtime, Map<String, List<TableSpec>> declared, List<String> undeclared) {
    Set<TableName> known = new HashSet<>();
    declared.values().forEach(specs -> specs.forEach(t -> known.add(t.name())));
    Map<String, List<TableName>> tables = new LinkedHashMap<>();
    try (Admin admin = runtime.connection().getAdmin()) {
      for (Map.Entry<String, List<TableSpec>> e : declared.entrySet()) {
        List<TableName> names = new ArrayList<>();
        e.getValue().forEach(t -> names.add(t.name()));
        Set<String> namespaces = new TreeSet<>();
        e.getValue().forEach(t -> namespaces.add(t.namespace()));
        for (String ns : namespaces) {
          TableName[] inNamespace = admin.listTableNamesByNamespace(ns);
          Arrays.sort(inNamespace);
          for (TableName t : inNamespace) {
            if (known.add(t)) {
              names.add(t);
              undeclared.add(t.getNameAsString());
            }
          }
        }
        tables.put(e.getKey(), List.copyOf(names));
      }
    } catch (IOException e) {
      throw StorageException.of("list the systems' tables", e);
    }
    return tables;
  }

  private CasebookSystem system(String name) {
    return systems.stream()
        .filter(s -> s.descriptor().name().equals(name))
        .findFirst()
        .orElseThrow(
            () -> new InvalidInputException("systems", "system " + name + " is not installed"));
  }

  /** Every codec asked for works here (the pure-Java ones are installed by the runtime). */
  private static void checkAvailable(List<Compression.Algorithm> codecs) {
    for (Compression.Algorithm a : codecs) {
      try {
        CompressionTest.testCompression(a);
      } catch (IOException | RuntimeException | LinkageError e) {
        throw new InvalidInputException(
            "codecs", "--codecs: " + a.name() + " does not work on this HBase: " + e.getMessage());
      }
    }
  }

  /** The loaded tables flushed: what the copies read is in store files, as a server's would be. */
  private static void flush(HBaseRuntime runtime, Map<String, List<TableName>> tables) {
    try (Admin admin = runtime.connection().getAdmin()) {
      for (List<TableName> names : tables.values()) {
        for (TableName t : names) {
          admin.flush(t);
        }
      }
    } catch (IOException e) {
      throw StorageException.of("flush the loaded tables", e);
    }
  }

  private void measure(
      HBaseRuntime runtime,
      List<Compression.Algorithm> codecs,
      Map<String, List<TableName>> tables,
      List<ConsoleData.Loaded> loaded,
      List<TableFigures> measured,
      List<String> empty) {
    StorageCopies copies =
        new StorageCopies(runtime.connection(), runtime.configuration(), NAMESPACE);
    copies.createNamespace();
    int total = tables.values().stream().mapToInt(List::size).sum();
    int index = 0;
    boolean warm = false;
    try {
      for (Map.Entry<String, List<TableName>> e : tables.entrySet()) {
        long records =
            loaded.stream()
                .filter(l -> l.system().equals(e.getKey()))
                .findFirst()
                .orElseThrow()
                .records();
        for (TableName table : e.getValue()) {
          index++;
          String at = String.format(Locale.ROOT, "[%d/%d] %s", index, total, table);
          StorageCopies.Source source = copies.survey(table, options.reads, SAMPLE_SEED);
          if (source.isEmpty()) {
            System.err.println(at + ": no data, not measured");
            empty.add(table.getNameAsString());
            continue;
          }
          System.err.printf(
              Locale.ROOT,
              "%s: %,d rows, %,d cells, %.1f MB uncompressed%n",
              at,
              source.rows(),
              source.cells(),
              source.cellBytes() / 1e6);
          if (!warm) {
            // The JIT and the region server's first allocations: one copy of the first table
            // with data, every step of it, not reported.
            System.err.println(at + ": warm-up copy (not reported)");
            copies.measure(source, List.of(codecs.get(0)), options.reads);
            warm = true;
          }
          measured.add(measureTable(copies, e.getKey(), source, records, codecs, index, at));
        }
      }
    } finally {
      copies.dropNamespace();
    }
  }

  /**
   * Every codec on one table, {@code --rounds} times, each round's order rotated by the table's
   * place and the round: over the tables, each codec comes first about as often as any other.
   */
  private TableFigures measureTable(
      StorageCopies copies,
      String system,
      StorageCopies.Source source,
      long records,
      List<Compression.Algorithm> codecs,
      int index,
      String at) {
    Map<Compression.Algorithm, List<StorageCopies.Copy>> byCodec = new LinkedHashMap<>();
    codecs.forEach(c -> byCodec.put(c, new ArrayList<>()));
    for (int round = 0; round < options.rounds; round++) {
      for (StorageCopies.Copy c :
          copies.measure(source, rotated(codecs, index + round), options.reads)) {
        Compression.Algorithm codec = Compression.Algorithm.valueOf(c.codec());
        byCodec.get(codec).add(c);
        System.err.printf(
            Locale.ROOT,
            "%s %-6s round %d/%d: %.2f MB on disk, write %,.0f cells/s, get p50 %.3f p99 %.3f ms,"
                + " scan %,.0f rows/s%n",
            at,
            codec.name(),
            round + 1,
            options.rounds,
            c.bytes() / 1e6,
            c.writeCellsPerSecond(),
            c.gets().millis(50),
            c.gets().millis(99),
            c.scanRowsPerSecond());
      }
    }
    List<CodecFigures> figures = new ArrayList<>();
    for (Map.Entry<Compression.Algorithm, List<StorageCopies.Copy>> e : byCodec.entrySet()) {
      figures.add(figures(e.getKey().name(), e.getValue()));
    }
    StorageChoice.Choice choice =
        StorageChoice.choose(
            figures.stream()
                .map(
                    f ->
                        new StorageChoice.Measured(
                            f.codec(), f.bytes(), f.writeCellsPerSecond(), f.gets().millis(99)))
                .toList());
    return new TableFigures(system, source, records, figures, choice);
  }

  static <T> List<T> rotated(List<T> list, int by) {
    List<T> out = new ArrayList<>(list);
    java.util.Collections.rotate(out, -(by % list.size()));
    return out;
  }

  private static CodecFigures figures(String codec, List<StorageCopies.Copy> rounds) {
    Latency gets = new Latency();
    rounds.forEach(r -> gets.add(r.gets()));
    StorageCopies.Copy median =
        rounds.stream()
            .sorted(java.util.Comparator.comparingDouble(StorageCopies.Copy::writeSeconds))
            .toList()
            .get(rounds.size() / 2);
    return new CodecFigures(
        codec,
        (long) median(rounds.stream().map(r -> (double) r.bytes()).toList()),
        median.familyBytes(),
        median.files(),
        median.cells(),
        median.cellBytes(),
        median.copySeconds(),
        median.flushSeconds(),
        median.writeCellsPerSecond(),
        median.writeMegabytesPerSecond(),
        gets,
        median(rounds.stream().map(StorageCopies.Copy::scanRowsPerSecond).toList()),
        median(rounds.stream().map(StorageCopies.Copy::scanMegabytesPerSecond).toList()),
        List.copyOf(rounds));
  }

  static double median(List<Double> values) {
    List<Double> sorted = new ArrayList<>(values);
    sorted.sort(null);
    int n = sorted.size();
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
  }
}
