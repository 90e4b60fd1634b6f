package org.casebook.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.hbase.io.compress.Compression;
import org.casebook.bench.StorageBenchmark.CodecFigures;
import org.casebook.bench.StorageBenchmark.TableFigures;

/** {@code bench storage}'s printed table, choices and JSON. */
final class StorageReport {
  private static final String NONE = StorageChoice.NONE;

  /**
   * Below this many bytes uncompressed a table is one or a few blocks: its copy's write time is the
   * flush's fixed cost and its reads' the call's, whatever the codec.
   */
  static final long SMALL_BYTES = 1_000_000;

  private final StorageBenchmark.Options options;
  private final List<String> codecs;
  private final List<ConsoleData.Loaded> loaded;
  private final List<TableFigures> tables;
  private final List<String> empty;
  private final List<String> undeclared;
  private final StoragePostgres.Sizes postgres;

  StorageReport(
      StorageBenchmark.Options options,
      List<Compression.Algorithm> codecs,
      List<ConsoleData.Loaded> loaded,
      List<TableFigures> tables,
      List<String> empty,
      List<String> undeclared,
      StoragePostgres.Sizes postgres) {
    this.options = options;
    this.codecs = codecs.stream().map(Enum::name).toList();
    this.loaded = List.copyOf(loaded);
    this.tables = List.copyOf(tables);
    this.empty = List.copyOf(empty);
    this.undeclared = List.copyOf(undeclared);
    this.postgres = postgres;
  }

  String render() {
    StringBuilder out = new StringBuilder();
    out.append(
        String.format(
            Locale.ROOT,
            "bench storage: every table with data, a copy per codec (scale %d, %,d Gets per copy,"
                + " %d round%s)%n",
            options.scale,
            options.reads,
            options.rounds,
            options.rounds == 1 ? "" : "s"));
    out.append(
        "Copies: compactions off (every store file live), data block cache off (each Get and the"
            + " scan read and decompress their data blocks; index and bloom blocks cached).\n"
            + "Write = copy (scan of the loaded table -> BufferedMutator) + flush; B/record: bytes"
            + " on disk / the system's records; x: ratio to NONE.\n");
    List<String[]> rows = new ArrayList<>();
    for (TableFigures t : tables) {
      CodecFigures none = t.codec(NONE);
      for (CodecFigures c : t.codecs()) {
        rows.add(
            new String[] {
              t.system(),
              t.source().table().getNameAsString(),
              String.join(",", t.source().families()),
              c.codec(),
              String.format(Locale.ROOT, "%.2f", c.bytes() / 1e6),
              String.format(Locale.ROOT, "%.1f", (double) c.bytes() / t.records()),
              String.format(Locale.ROOT, "%.1f", (double) c.bytes() / c.cells()),
              ratio((double) c.bytes() / none.bytes()),
              String.format(Locale.ROOT, "%,.0f", c.writeCellsPerSecond()),
              ratio(c.writeCellsPerSecond() / none.writeCellsPerSecond()),
              String.format(Locale.ROOT, "%.3f", c.gets().millis(50)),
              String.format(Locale.ROOT, "%.3f", c.gets().millis(99)),
              ratio(c.gets().millis(99) / none.gets().millis(99)),
              String.format(Locale.ROOT, "%,.0f", c.scanRowsPerSecond()),
              ratio(c.scanRowsPerSecond() / none.scanRowsPerSecond())
            });
      }
    }
    out.append(
        columns(
            new String[] {
              "system",
              "table",
              "families",
              "codec",
              "MB disk",
              "B/record",
              "B/cell",
              "x",
              "write cells/s",
              "x",
              "get p50 ms",
              "p99 ms",
              "x",
              "scan rows/s",
              "x"
            },
            4,
            rows));
    if (!empty.isEmpty()) {
      out.append("no data (not measured): ").append(String.join(", ", empty)).append('\n');
    }
    if (!undeclared.isEmpty()) {
      out.append("made by the load, not among the system's declared tables: ")
          .append(String.join(", ", undeclared))
          .append('\n');
    }
    out.append(
        String.format(
            Locale.ROOT,
            "%nChoice per table: the fewest bytes with write rate and read p99 within %.0f %% of"
                + " NONE's%n",
            StorageChoice.TOLERANCE * 100));
    List<String[]> choices = new ArrayList<>();
    for (TableFigures t : tables) {
      StorageChoice.Choice c = t.choice();
      choices.add(
          new String[] {
            t.source().table().getNameAsString(),
            c.codec(),
            String.format(
                Locale.ROOT,
                "bytes %s, write %s, p99 %s",
                ratio(c.bytesRatio()),
                ratio(c.writeRatio()),
                ratio(c.p99Ratio())),
            small(t)
                ? String.format(
                        Locale.ROOT,
                        "small table (%.0f kB): its figures are fixed costs, not the codec's; ",
                        t.source().cellBytes() / 1e3)
                    + c.note()
                : c.note()
          });
    }
    out.append(columns(new String[] {"table", "choice", "x NONE", "why"}, 4, choices));
    List<String> costly = costly();
    if (!costly.isEmpty()) {
      out.append(
          String.format(
              Locale.ROOT,
              "%nCodecs costing more than %.0f %% of NONE's write rate or read p99:%n",
              StorageChoice.TOLERANCE * 100));
      costly.forEach(line -> out.append("  ").append(line).append('\n'));
    }
    out.append("\nBytes on disk per record, all of a system's tables with data\n");
    List<String[]> perSystem = new ArrayList<>();
    for (ConsoleData.Loaded l : loaded) {
      List<String> row = new ArrayList<>(List.of(l.system(), String.format("%,d", l.records())));
      for (String codec : codecs) {
        row.add(String.format(Locale.ROOT, "%.1f", systemBytes(l.system(), codec) / l.records()));
      }
      perSystem.add(row.toArray(new String[0]));
    }
    List<String> header = new ArrayList<>(List.of("system", "records"));
    header.addAll(codecs);
    out.append(columns(header.toArray(new String[0]), 1, perSystem));
    if (postgres != null) {
      out.append(postgres());
    }
    return out.toString();
  }

  private String postgres() {
    StringBuilder out = new StringBuilder();
    List<String> trailsTables =
        tables.stream()
            .filter(t -> t.system().equals("trails"))
            .map(t -> t.source().table().getQualifierAsString())
            .toList();
    long records = records("trails");
    out.append(
        String.format(
            Locale.ROOT,
            "%nTrails beside PostgreSQL 16: %,d records by COPY, indexes (uid, ts) and (uid, type,"
                + " ts), ANALYZE%n",
            postgres.rows()));
    out.append(
        String.format(
            Locale.ROOT,
            "PostgreSQL: heap %.1f B/record (%.2f MB), indexes %.1f B/record (%.2f MB), total"
                + " %.1f B/record (%.2f MB)%n",
            postgres.perRow(postgres.heapBytes()),
            postgres.heapBytes() / 1e6,
            postgres.perRow(postgres.indexBytes()),
            postgres.indexBytes() / 1e6,
            postgres.perRow(postgres.totalBytes()),
            postgres.totalBytes() / 1e6));
    if (postgres.rows() != records) {
      out.append(
          String.format(
              Locale.ROOT,
              "(trails stored %,d records, PostgreSQL %,d)%n",
              records,
              postgres.rows()));
    }
    List<String[]> rows = new ArrayList<>();
    for (String codec : codecs) {
      double perRecord = systemBytes("trails", codec) / records;
      rows.add(
          new String[] {
            codec,
            String.format(Locale.ROOT, "%.1f", perRecord),
            ratio(perRecord / postgres.perRow(postgres.totalBytes()))
          });
    }
    out.append("HBase trails (").append(String.join(" + ", trailsTables)).append("):\n");
    out.append(columns(new String[] {"codec", "B/record", "x PostgreSQL total"}, 1, rows));
    return out.toString();
  }

  /** One line per table with a codec beyond the tolerance: which, and by how much. */
  private List<String> costly() {
    List<String> lines = new ArrayList<>();
    for (TableFigures t : tables) {
      CodecFigures none = t.codec(NONE);
      List<String> parts = new ArrayList<>();
      for (CodecFigures c : t.codecs()) {
        double write = c.writeCellsPerSecond() / none.writeCellsPerSecond();
        double p99 = c.gets().millis(99) / none.gets().millis(99);
        List<String> costs = new ArrayList<>();
        if (write < 1 - StorageChoice.TOLERANCE) {
          costs.add(String.format(Locale.ROOT, "write %+.0f %%", (write - 1) * 100));
        }
        if (p99 > 1 + StorageChoice.TOLERANCE) {
          costs.add(String.format(Locale.ROOT, "p99 %+.0f %%", (p99 - 1) * 100));
        }
        if (!costs.isEmpty()) {
          parts.add(c.codec() + " " + String.join(", ", costs));
        }
      }
      if (!parts.isEmpty()) {
        lines.add(t.source().table().getNameAsString() + ": " + String.join("; ", parts));
      }
    }
    return lines;
  }

  private double systemBytes(String system, String codec) {
    return tables.stream()
        .filter(t -> t.system().equals(system))
        .mapToLong(t -> t.codec(codec).bytes())
        .sum();
  }

  private long records(String system) {
    return loaded.stream()
        .filter(l -> l.system().equals(system))
        .mapToLong(ConsoleData.Loaded::records)
        .sum();
  }

  Map<String, Object> json() {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("options", options.toJson());
    json.put(
        "method",
        "a copy of each table per codec: the source's descriptor and region boundaries, the"
            + " families' compression set to the codec, compactions off, the data block cache off"
            + " (reads decompress); write = copy + flush");
    json.put("loaded", loaded);
    List<Map<String, Object>> list = new ArrayList<>();
    for (TableFigures t : tables) {
      list.add(table(t));
    }
    json.put("tables", list);
    json.put("emptyTables", empty);
    json.put("undeclaredTables", undeclared);
    List<Map<String, Object>> systems = new ArrayList<>();
    for (ConsoleData.Loaded l : loaded) {
      Map<String, Object> s = new LinkedHashMap<>();
      s.put("system", l.system());
      s.put("records", l.records());
      Map<String, Object> perRecord = new LinkedHashMap<>();
      for (String codec : codecs) {
        perRecord.put(codec, systemBytes(l.system(), codec) / l.records());
      }
      s.put("bytesPerRecord", perRecord);
      systems.add(s);
    }
    json.put("systems", systems);
    if (postgres != null) {
      Map<String, Object> pg = new LinkedHashMap<>();
      pg.put("rows", postgres.rows());
      pg.put("heapBytes", postgres.heapBytes());
      pg.put("indexBytes", postgres.indexBytes());
      pg.put("totalBytes", postgres.totalBytes());
      pg.put("heapBytesPerRecord", postgres.perRow(postgres.heapBytes()));
      pg.put("indexBytesPerRecord", postgres.perRow(postgres.indexBytes()));
      pg.put("totalBytesPerRecord", postgres.perRow(postgres.totalBytes()));
      pg.put("loadSeconds", postgres.loadSeconds());
      Map<String, Object> hbase = new LinkedHashMap<>();
      for (String codec : codecs) {
        double perRecord = systemBytes("trails", codec) / records("trails");
        hbase.put(
            codec,
            Map.of(
                "bytesPerRecord",
                perRecord,
                "ratioToPostgresTotal",
                perRecord / postgres.perRow(postgres.totalBytes())));
      }
      pg.put("hbaseTrails", hbase);
      json.put("postgres", pg);
    }
    return json;
  }

  private static Map<String, Object> table(TableFigures t) {
    Map<String, Object> m = new LinkedHashMap<>();
    StorageCopies.Source s = t.source();
    m.put("system", t.system());
    m.put("table", s.table().getNameAsString());
    m.put("families", s.families());
    m.put("regions", s.regions());
    m.put("rows", s.rows());
    m.put("cells", s.cells());
    m.put("cellBytes", s.cellBytes());
    m.put("records", t.records());
    m.put("small", small(t));
    CodecFigures none = t.codec(NONE);
    List<Map<String, Object>> codecs = new ArrayList<>();
    for (CodecFigures c : t.codecs()) {
      Map<String, Object> f = new LinkedHashMap<>();
      f.put("codec", c.codec());
      f.put("bytes", c.bytes());
      f.put("bytesRatio", (double) c.bytes() / none.bytes());
      f.put("familyBytes", c.familyBytes());
      f.put("files", c.files());
      f.put("bytesPerRow", (double) c.bytes() / s.rows());
      f.put("bytesPerCell", (double) c.bytes() / c.cells());
      f.put("bytesPerRecord", (double) c.bytes() / t.records());
      Map<String, Object> write = new LinkedHashMap<>();
      write.put("cells", c.cells());
      write.put("cellBytes", c.cellBytes());
      write.put("copySeconds", c.copySeconds());
      write.put("flushSeconds", c.flushSeconds());
      write.put("cellsPerSecond", c.writeCellsPerSecond());
      write.put("megabytesPerSecond", c.writeMegabytesPerSecond());
      write.put("ratio", c.writeCellsPerSecond() / none.writeCellsPerSecond());
      f.put("write", write);
      Map<String, Object> gets = new LinkedHashMap<>(c.gets().toJson());
      gets.put("p99Ratio", c.gets().millis(99) / none.gets().millis(99));
      f.put("gets", gets);
      Map<String, Object> scan = new LinkedHashMap<>();
      scan.put("rowsPerSecond", c.scanRowsPerSecond());
      scan.put("megabytesPerSecond", c.scanMegabytesPerSecond());
      scan.put("ratio", c.scanRowsPerSecond() / none.scanRowsPerSecond());
      f.put("scan", scan);
      List<Map<String, Object>> rounds = new ArrayList<>();
      for (StorageCopies.Copy r : c.rounds()) {
        Map<String, Object> round = new LinkedHashMap<>();
        round.put("bytes", r.bytes());
        round.put("writeCellsPerSecond", r.writeCellsPerSecond());
        round.put("getP50Ms", r.gets().millis(50));
        round.put("getP99Ms", r.gets().millis(99));
        round.put("scanRowsPerSecond", r.scanRowsPerSecond());
        rounds.add(round);
      }
      f.put("rounds", rounds);
      codecs.add(f);
    }
    m.put("codecs", codecs);
    m.put("choice", t.choice());
    return m;
  }

  private static boolean small(TableFigures t) {
    return t.source().cellBytes() < SMALL_BYTES;
  }

  private static String ratio(double r) {
    return String.format(Locale.ROOT, "%.2f", r);
  }

  /**
   * Columns as wide as their widest cell; the first {@code leftAligned} to the left (names), the
   * others to the right (figures).
   */
  static String columns(String[] header, int leftAligned, List<String[]> rows) {
    int[] width = new int[header.length];
    for (int i = 0; i < header.length; i++) {
      width[i] = header[i].length();
      for (String[] r : rows) {
        width[i] = Math.max(width[i], r[i].length());
      }
    }
    StringBuilder out = new StringBuilder();
    List<String[]> all = new ArrayList<>();
    all.add(header);
    all.addAll(rows);
    for (String[] r : all) {
      StringBuilder line = new StringBuilder();
      for (int i = 0; i < r.length; i++) {
        if (i > 0) {
          line.append("  ");
        }
        String pad = " ".repeat(width[i] - r[i].length());
        line.append(i < leftAligned ? r[i] + pad : pad + r[i]);
      }
      out.append(line.toString().stripTrailing()).append('\n');
    }
    return out.toString();
  }
}
