package org.casebook.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.BufferedMutatorParams;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.RetriesExhaustedWithDetailsException;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.casebook.core.InvalidInputException;
import org.casebook.core.cli.Progress;
import org.casebook.core.key.KeyBuilder;
import org.casebook.core.schema.FamilySpec;
import org.casebook.core.schema.SchemaManager;
import org.casebook.core.schema.SplitPoints;
import org.casebook.core.schema.TableSpec;
import picocli.CommandLine.Option;

/**
 * The raw HBase ceiling every system is compared with: what the plain client API does on this
 * HBase, with keys spread over pre-split regions (4-byte hash prefix + row number).
 */
public final class RawBenchmark {
  static final TableName TABLE = TableName.valueOf("casebook_bench", "raw");
  private static final byte[] FAMILY = Bytes.toBytes("f");
  private static final byte[] QUALIFIER = Bytes.toBytes("v");

  /** Size of the extra cells of {@code --cells}: a version or counter cell's order of size. */
  static final int SMALL_CELL_BYTES = 16;

  /** Sizes; the defaults finish in about a minute on a 2-core machine. */
  public static final class Options {
    @Option(
        paramLabel = "N",
        names = "--rows",
        defaultValue = "300000",
        description = "Rows written (default ${DEFAULT-VALUE}).")
    public int rows;

    @Option(
        paramLabel = "BYTES",
        names = "--value-bytes",
        defaultValue = "100",
        description = "Value size (default ${DEFAULT-VALUE}).")
    public int valueBytes;

    @Option(
        paramLabel = "N",
        names = "--cells",
        defaultValue = "1",
        description =
            "Cells per row: one of --value-bytes, the others of "
                + SMALL_CELL_BYTES
                + " B, as a system's rows carry small cells (versions, counters) beside their"
                + " value (default ${DEFAULT-VALUE}).")
    public int cells;

    @Option(
        paramLabel = "N",
        names = "--regions",
        defaultValue = "8",
        description = "Pre-split regions (default ${DEFAULT-VALUE}).")
    public int regions;

    @Option(
        paramLabel = "N",
        names = "--gets",
        defaultValue = "20000",
        description = "Single Gets timed (default ${DEFAULT-VALUE}).")
    public int gets;

    @Option(
        paramLabel = "N",
        names = "--batch",
        defaultValue = "100",
        description = "Gets per batched call (default ${DEFAULT-VALUE}).")
    public int batch;

    @Option(
        paramLabel = "N",
        names = "--batches",
        defaultValue = "300",
        description = "Batched calls timed (default ${DEFAULT-VALUE}).")
    public int batches;

    @Option(
        paramLabel = "MB",
        names = "--buffer-mb",
        defaultValue = "8",
        description = "BufferedMutator buffer (default ${DEFAULT-VALUE}).")
    public int bufferMb;

    public static Options defaults() {
      Options o = new Options();
      o.rows = 300_000;
      o.valueBytes = 100;
      o.regions = 8;
      o.gets = 20_000;
      o.batch = 100;
      o.batches = 300;
      o.bufferMb = 8;
      o.cells = 1;
      return o;
    }

    void validate() {
      InvalidInputException.check(rows >= 1000, "rows", "--rows must be at least 1000");
      InvalidInputException.check(
          valueBytes >= 1 && valueBytes <= 1 << 20,
          "value-bytes",
          "--value-bytes must be 1..1048576");
      InvalidInputException.check(cells >= 1 && cells <= 100, "cells", "--cells must be 1..100");
      InvalidInputException.check(
          regions >= 1 && regions <= 1024, "regions", "--regions must be 1..1024");
      InvalidInputException.check(gets >= 100, "gets", "--gets must be at least 100");
      InvalidInputException.check(
          batch >= 1 && batch <= 10_000, "batch", "--batch must be 1..10000");
      InvalidInputException.check(batches >= 1, "batches", "--batches must be positive");
      InvalidInputException.check(
          bufferMb >= 1 && bufferMb <= 1024, "buffer-mb", "--buffer-mb must be 1..1024");
    }

    public Map<String, Object> toJson() {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("rows", rows);
      m.put("valueBytes", valueBytes);
      m.put("cells", cells);
      m.put("regions", regions);
      m.put("gets", gets);
      m.put("batch", batch);
      m.put("batches", batches);
      m.put("bufferMb", bufferMb);
      return m;
    }
  }

  /** What one run measured. */
  public record Figures(
      BenchTable table,
      double writeCellsPerSecond,
      Latency singlePut,
      Latency singleGet,
      double batchedGetsPerSecond,
      double scanRowsPerSecond) {}

  private final Connection connection;
  private final Options options;

  public RawBenchmark(Connection connection, Options options) {
    this.connection = connection;
    this.options = options;
    options.validate();
  }

  public Figures run() {
    SchemaManager schemas = new SchemaManager(connection);
    createTable(schemas);
    BenchTable table =
        new BenchTable(
            "bench raw: "
                + options.rows
                + " rows of "
                + options.valueBytes
                + " B, "
                + options.regions
                + " regions");
    try {
      // Warm-up: JIT, region locations, first memstore allocations. Not reported.
      write(0, Math.max(1000, options.rows / 10), null);
      double writeSeconds = write(options.rows, options.rows, "write");
      double writeRate = options.rows / writeSeconds;
      table.add(
          "write (BufferedMutator, " + options.bufferMb + " MB buffer)",
          options.rows,
          options.cells == 1 ? "cells" : "rows",
          writeSeconds,
          null,
          options.cells == 1
              ? "1 cell per row"
              : options.cells
                  + " cells per row ("
                  + (options.cells - 1)
                  + " of "
                  + SMALL_CELL_BYTES
                  + " B)");
      Latency put = singlePuts(table);
      long t0 = System.nanoTime();
      try (Admin admin = connection.getAdmin()) {
        admin.flush(TABLE);
      }
      table.add("flush memstores to HFiles", 1, "tables", (System.nanoTime() - t0) / 1e9, null, "");
      Latency single = singleGets(table);
      double batched = batchedGets(table);
      double scan = scan(table);
      return new Figures(table, writeRate, put, single, batched, scan);
    } catch (IOException e) {
      throw new UncheckedIOException("raw benchmark failed: " + e.getMessage(), e);
    } finally {
      schemas.drop(TABLE);
    }
  }

  private void createTable(SchemaManager schemas) {
    schemas.drop(TABLE);
    schemas.ensure(
        new TableSpec(
            TABLE,
            List.of(FamilySpec.of("f")),
            SplitPoints.uniform(options.regions),
            "md5(row)[0..4] | row:long"));
  }

  /** The raw ceiling that system benchmarks measure in the same run, at a smaller size. */
  static Figures ceiling(Connection connection, int rows) {
    Options o = Options.defaults();
    o.rows = rows;
    o.gets = 5000;
    o.batches = 100;
    return new RawBenchmark(connection, o).run();
  }

  /**
   * The write ceiling alone, for benchmarks that alternate it with their own loads: cells per
   * second of {@code rows} rows of {@code valueBytes} through one BufferedMutator, into a fresh
   * table of the default regions, after a warm-up; the table is dropped afterwards.
   */
  static double writeRate(Connection connection, int rows, int valueBytes, int cells) {
    Options o = Options.defaults();
    o.rows = rows;
    o.valueBytes = valueBytes;
    o.cells = cells;
    RawBenchmark raw = new RawBenchmark(connection, o);
    SchemaManager schemas = new SchemaManager(connection);
    raw.createTable(schemas);
    try {
      raw.write(0, Math.max(1000, rows / 10), null);
      return rows / raw.write(rows, rows, "write");
    } catch (IOException e) {
      throw new UncheckedIOException("raw write failed: " + e.getMessage(), e);
    } finally {
      schemas.drop(TABLE);
    }
  }

  static byte[] row(long i) {
    byte[] id = Bytes.toBytes(i);
    return KeyBuilder.create(20).addHashPrefix(4, id).addLong(i).addFixed(new byte[8]).build();
  }

  private double write(long first, int count, String label) throws IOException {
    byte[] value = new byte[options.valueBytes];
    new SplittableRandom(7).nextBytes(value);
    byte[] small = Arrays.copyOf(value, Math.min(SMALL_CELL_BYTES, value.length));
    AtomicReference<RetriesExhaustedWithDetailsException> failure = new AtomicReference<>();
    BufferedMutatorParams params =
        new BufferedMutatorParams(TABLE)
            .writeBufferSize((long) options.bufferMb << 20)
            .listener((e, mutator) -> failure.compareAndSet(null, e));
    long t0 = System.nanoTime();
    try (Progress progress =
            label == null ? null : Progress.start("bench raw " + label, count, "rows");
        BufferedMutator m = connection.getBufferedMutator(params)) {
      for (long i = first; i < first + count; i++) {
        Put p = new Put(row(i)).addColumn(FAMILY, QUALIFIER, value);
        for (int c = 1; c < options.cells; c++) {
          p.addColumn(FAMILY, new byte[] {(byte) c}, small);
        }
        p.setDurability(org.apache.hadoop.hbase.client.Durability.USE_DEFAULT);
        m.mutate(p);
        if (progress != null) {
          progress.advance(1);
        }
      }
      m.flush();
    }
    if (failure.get() != null) {
      throw failure.get();
    }
    return (System.nanoTime() - t0) / 1e9;
  }

  /**
   * Synchronous Table.put of one row each (new rows after the bulk-written ones): a write round
   * trip.
   */
  private Latency singlePuts(BenchTable table) throws IOException {
    int n = Math.max(1000, options.gets / 4);
    byte[] value = new byte[options.valueBytes];
    Latency latency = new Latency();
    try (Table t = connection.getTable(TABLE)) {
      long base = 2L * options.rows + 1_000_000L;
      long t0 = System.nanoTime();
      for (int i = 0; i < n; i++) {
        Put p = new Put(row(base + i)).addColumn(FAMILY, QUALIFIER, value);
        long s = System.nanoTime();
        t.put(p);
        latency.recordNanos(System.nanoTime() - s);
      }
      table.add(
          "single Put (synchronous)",
          n,
          "puts",
          (System.nanoTime() - t0) / 1e9,
          latency,
          "one WAL append each");
    }
    return latency;
  }

  private Latency singleGets(BenchTable table) throws IOException {
    SplittableRandom rnd = new SplittableRandom(11);
    Latency latency = new Latency();
    try (Table t = connection.getTable(TABLE)) {
      for (int i = 0; i < Math.min(2000, options.gets); i++) {
        t.get(new Get(row(rnd.nextLong(options.rows))));
      }
      long t0 = System.nanoTime();
      for (int i = 0; i < options.gets; i++) {
        long s = System.nanoTime();
        Result r = t.get(new Get(row(options.rows + rnd.nextLong(options.rows))));
        latency.recordNanos(System.nanoTime() - s);
        if (r.isEmpty()) {
          throw new IllegalStateException("row missing: the write step lost data");
        }
      }
      table.add(
          "single Get (random row)",
          options.gets,
          "gets",
          (System.nanoTime() - t0) / 1e9,
          latency,
          "");
    }
    return latency;
  }

  private double batchedGets(BenchTable table) throws IOException {
    SplittableRandom rnd = new SplittableRandom(13);
    Latency latency = new Latency();
    try (Table t = connection.getTable(TABLE)) {
      long t0 = System.nanoTime();
      for (int b = 0; b < options.batches; b++) {
        List<Get> gets = new ArrayList<>(options.batch);
        for (int i = 0; i < options.batch; i++) {
          gets.add(new Get(row(options.rows + rnd.nextLong(options.rows))));
        }
        long s = System.nanoTime();
        Result[] results = t.get(gets);
        latency.recordNanos(System.nanoTime() - s);
        for (Result r : results) {
          if (r.isEmpty()) {
            throw new IllegalStateException("row missing in batched get");
          }
        }
      }
      double secs = (System.nanoTime() - t0) / 1e9;
      long total = (long) options.batches * options.batch;
      table.add(
          "batched Get (" + options.batch + " per call)",
          total,
          "gets",
          secs,
          latency,
          "latency per call");
      return total / secs;
    }
  }

  private double scan(BenchTable table) throws IOException {
    try (Table t = connection.getTable(TABLE)) {
      Scan scan = new Scan().setCaching(1000);
      // Counts every row: the bulk rows, the warm-up rows and the single puts.
      long rows = 0;
      long t0 = System.nanoTime();
      try (ResultScanner scanner = t.getScanner(scan)) {
        while (scanner.next() != null) {
          rows++;
        }
      }
      double secs = (System.nanoTime() - t0) / 1e9;
      table.add("scan (caching 1000)", rows, "rows", secs, null, "whole table");
      return rows / secs;
    }
  }
}
