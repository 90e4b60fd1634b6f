package org.casebook.bench;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.BufferedMutatorParams;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.RetriesExhaustedWithDetailsException;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.io.compress.Compression;
import org.apache.hadoop.hbase.util.Bytes;
import org.casebook.core.StorageException;
import org.casebook.core.schema.SchemaManager;
import org.casebook.core.schema.TableFootprint;

/**
 * {@code bench storage}'s measurement of one table under one codec: a copy of the table in a
 * scratch namespace with the source's descriptor (families, block size, data block encoding, bloom
 * filter, versions, TTL, table settings) and region boundaries, but the families' compression set
 * to the codec, compactions off (every store file the flush writes stays live: the bytes counted
 * are what the codec made of the data) and the families' block cache off for data blocks (index and
 * bloom blocks are still cached), so every Get and scan reads its data blocks from the file system
 * (here the OS page cache) and decompresses them. Every cell is copied, every version, with its
 * timestamp; then the copy is measured and dropped.
 */
final class StorageCopies {
  /** The client's write buffer for the copy: as {@code bench raw}'s. */
  private static final long WRITE_BUFFER_BYTES = 8L << 20;

  private static final int SCAN_CACHING = 1000;

  /**
   * The copies' memstore flush size: no copy of the systems' data at the default scale fills it, so
   * the flush after the copy is its one flush, and the codec's work on write is all in it (and no
   * flush of the region's own runs when the copy's is asked for).
   */
  static final long MEMSTORE_FLUSH_BYTES = 1L << 30;

  /**
   * What a full read of the source table found: the row keys the Gets read (a uniform sample) and
   * its size, uncompressed. The read is also the warm-up of the source, so that the first codec's
   * copy does not read it colder than the others'.
   */
  record Source(
      TableName table,
      List<String> families,
      int regions,
      long rows,
      long cells,
      long cellBytes,
      List<byte[]> sample) {
    Source {
      families = List.copyOf(families);
      sample = List.copyOf(sample);
    }

    boolean isEmpty() {
      return cells == 0;
    }
  }

  /**
   * One codec's copy, measured: its store files, the copy (scan → BufferedMutator) and the flush
   * that wrote them, the Gets and a full scan.
   */
  record Copy(
      String codec,
      long bytes,
      Map<String, Long> familyBytes,
      int files,
      long cells,
      long cellBytes,
      double copySeconds,
      double flushSeconds,
      Latency gets,
      long scannedRows,
      long scannedBytes,
      double scanSeconds) {
    Copy {
      familyBytes = Map.copyOf(familyBytes);
    }

    /** Copy and flush: every cell written and on disk in the codec's form. */
    double writeSeconds() {
      return copySeconds + flushSeconds;
    }

    double writeCellsPerSecond() {
      return cells / writeSeconds();
    }

    double writeMegabytesPerSecond() {
      return cellBytes / 1e6 / writeSeconds();
    }

    double scanRowsPerSecond() {
      return scannedRows / scanSeconds;
    }

    double scanMegabytesPerSecond() {
      return scannedBytes / 1e6 / scanSeconds;
    }
  }

  private final Connection connection;
  private final Configuration configuration;
  private final String namespace;

  /**
   * Copies into {@code namespace} (created by {@link #createNamespace}, dropped with everything in
   * it by {@link #dropNamespace}); {@code configuration} is the HBase's, for its root directory.
   */
  StorageCopies(Connection connection, Configuration configuration, String namespace) {
    this.connection = connection;
    this.configuration = configuration;
    this.namespace = namespace;
  }

  void createNamespace() {
    new SchemaManager(connection).ensureNamespace(namespace);
  }

  void dropNamespace() {
    new SchemaManager(connection).dropNamespace(namespace);
  }

  /**
   * Reads all of {@code table} (every version): its rows, cells and bytes, and a uniform sample of
   * up to {@code reads} of its row keys (reservoir sampling with {@code seed}), shuffled.
   */
  Source survey(TableName table, int reads, long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    List<byte[]> sample = new ArrayList<>();
    long rows = 0;
    long cells = 0;
    long bytes = 0;
    List<String> families = new ArrayList<>();
    int regions;
    try (Admin admin = connection.getAdmin();
        Table t = connection.getTable(table);
        ResultScanner scanner = t.getScanner(fullScan())) {
      for (ColumnFamilyDescriptor f : admin.getDescriptor(table).getColumnFamilies()) {
        families.add(f.getNameAsString());
      }
      regions = admin.getRegions(table).size();
      byte[] lastRow = null;
      for (Result r = scanner.next(); r != null; r = scanner.next()) {
        if (lastRow == null || !Bytes.equals(lastRow, r.getRow())) {
          lastRow = r.getRow();
          rows++;
          if (sample.size() < reads) {
            sample.add(lastRow);
          } else {
            long slot = rnd.nextLong(rows);
            if (slot < reads) {
              sample.set((int) slot, lastRow);
            }
          }
        }
        for (Cell c : r.rawCells()) {
          cells++;
          bytes += cellBytes(c);
        }
      }
    } catch (IOException e) {
      throw StorageException.of("read table " + table, e);
    }
    shuffle(sample, rnd);
    return new Source(table, families, regions, rows, cells, bytes, sample);
  }

  /**
   * Copies {@code source} under each of {@code codecs}, in that order, and measures each copy with
   * {@code reads} Gets of its sampled rows (after one untimed pass over them) and a full scan. The
   * copies are created together before the first is written and dropped together after the last is
   * measured: creating and dropping a table is mostly waiting for HBase's procedures, which
   * overlap, while the copies are written and read one at a time.
   */
  List<Copy> measure(Source source, List<Compression.Algorithm> codecs, int reads) {
    if (source.isEmpty()) {
      throw new IllegalArgumentException(source.table() + " has no data to copy");
    }
    List<TableName> copies = codecs.stream().map(c -> copyName(source.table(), c)).toList();
    try (Admin admin = connection.getAdmin()) {
      drop(admin, copies);
      try {
        create(admin, source.table(), codecs);
        List<Copy> measured = new ArrayList<>();
        for (Compression.Algorithm codec : codecs) {
          measured.add(measure(admin, source, codec, reads));
        }
        return measured;
      } finally {
        drop(admin, copies);
      }
    } catch (IOException e) {
      throw StorageException.of("measure the copies of " + source.table(), e);
    }
  }

  private Copy measure(Admin admin, Source source, Compression.Algorithm codec, int reads)
      throws IOException {
    TableName copy = copyName(source.table(), codec);
    long[] written = new long[2];
    long t0 = System.nanoTime();
    copyCells(source.table(), copy, written);
    double copySeconds = (System.nanoTime() - t0) / 1e9;
    t0 = System.nanoTime();
    admin.flush(copy);
    double flushSeconds = (System.nanoTime() - t0) / 1e9;
    TableFootprint footprint = TableFootprint.measure(connection, configuration, copy);
    Map<String, Long> familyBytes = footprint.familyBytes();
    int files = footprint.storeFiles();
    long bytes = footprint.bytesOnDisk();
    if (written[0] != source.cells()) {
      throw new IllegalStateException(
          copy + ": copied " + written[0] + " cells of the source's " + source.cells());
    }
    Latency gets = gets(copy, source.sample(), reads);
    long[] scanned = new long[3];
    t0 = System.nanoTime();
    scan(copy, scanned);
    double scanSeconds = (System.nanoTime() - t0) / 1e9;
    if (scanned[1] != written[0] || scanned[0] != source.rows()) {
      throw new IllegalStateException(
          copy
              + ": a scan of the flushed copy found "
              + scanned[0]
              + " rows and "
              + scanned[1]
              + " cells; "
              + source.rows()
              + " rows and "
              + written[0]
              + " cells were copied");
    }
    return new Copy(
        codec.name(),
        bytes,
        familyBytes,
        files,
        written[0],
        written[1],
        copySeconds,
        flushSeconds,
        gets,
        scanned[0],
        scanned[2],
        scanSeconds);
  }

  /** The copy of {@code source} under {@code codec}: {@code <namespace>:<ns>-<table>-<codec>}. */
  TableName copyName(TableName source, Compression.Algorithm codec) {
    return TableName.valueOf(
        namespace,
        source.getNamespaceAsString()
            + "-"
            + source.getQualifierAsString()
            + "-"
            + codec.getName());
  }

  /**
   * A copy per codec: the source's descriptor and region boundaries, with the codec, no
   * compactions, no data block cache.
   */
  private void create(Admin admin, TableName source, List<Compression.Algorithm> codecs)
      throws IOException {
    TableDescriptor from = admin.getDescriptor(source);
    byte[][] splits =
        admin.getRegions(source).stream()
            .map(RegionInfo::getStartKey)
            .filter(k -> k.length > 0)
            .sorted(Bytes.BYTES_COMPARATOR)
            .toArray(byte[][]::new);
    List<Future<Void>> creating = new ArrayList<>();
    for (Compression.Algorithm codec : codecs) {
      TableDescriptorBuilder b =
          TableDescriptorBuilder.newBuilder(
                  TableDescriptorBuilder.copy(copyName(source, codec), from))
              .setCompactionEnabled(false)
              .setMemStoreFlushSize(MEMSTORE_FLUSH_BYTES);
      for (ColumnFamilyDescriptor f : from.getColumnFamilies()) {
        b.modifyColumnFamily(
            ColumnFamilyDescriptorBuilder.newBuilder(f)
                .setCompressionType(codec)
                .setBlockCacheEnabled(false)
                .build());
      }
      creating.add(
          splits.length == 0
              ? admin.createTableAsync(b.build())
              : admin.createTableAsync(b.build(), splits));
    }
    for (Future<Void> f : creating) {
      await(f, "create a copy of " + source);
    }
  }

  /** Drops those of {@code tables} that exist: disabled together, then deleted together. */
  private static void drop(Admin admin, List<TableName> tables) throws IOException {
    List<TableName> existing = new ArrayList<>();
    for (TableName t : tables) {
      if (admin.tableExists(t)) {
        existing.add(t);
      }
    }
    List<Future<Void>> disabling = new ArrayList<>();
    for (TableName t : existing) {
      if (admin.isTableEnabled(t)) {
        disabling.add(admin.disableTableAsync(t));
      }
    }
    for (Future<Void> f : disabling) {
      await(f, "disable a copy");
    }
    List<Future<Void>> deleting = new ArrayList<>();
    for (TableName t : existing) {
      deleting.add(admin.deleteTableAsync(t));
    }
    for (Future<Void> f : deleting) {
      await(f, "drop a copy");
    }
  }

  private static void await(Future<Void> f, String what) throws IOException {
    try {
      f.get(10, TimeUnit.MINUTES);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new java.io.InterruptedIOException("interrupted while waiting to " + what);
    } catch (ExecutionException e) {
      throw new IOException("could not " + what + ": " + e.getCause().getMessage(), e.getCause());
    } catch (TimeoutException e) {
      throw new IOException("could not " + what + " in 10 minutes", e);
    }
  }

  /** Every cell of {@code source} into {@code copy}; {@code written} gets cells and bytes. */
  private void copyCells(TableName source, TableName copy, long[] written) throws IOException {
    AtomicReference<RetriesExhaustedWithDetailsException> failure = new AtomicReference<>();
    BufferedMutatorParams params =
        new BufferedMutatorParams(copy)
            .writeBufferSize(WRITE_BUFFER_BYTES)
            .listener((e, mutator) -> failure.compareAndSet(null, e));
    try (Table from = connection.getTable(source);
        ResultScanner scanner = from.getScanner(fullScan());
        BufferedMutator to = connection.getBufferedMutator(params)) {
      for (Result r = scanner.next(); r != null; r = scanner.next()) {
        Put put = new Put(r.getRow());
        for (Cell c : r.rawCells()) {
          put.add(c);
          written[0]++;
          written[1] += cellBytes(c);
        }
        to.mutate(put);
      }
      to.flush();
    }
    if (failure.get() != null) {
      throw failure.get();
    }
  }

  /**
   * {@code reads} Gets of the sampled rows, in turn, timed one by one after an untimed pass over
   * them (which loads the files' index and bloom blocks, the same for every codec); every row must
   * be there.
   */
  private Latency gets(TableName table, List<byte[]> rows, int reads) throws IOException {
    Latency latency = new Latency();
    try (Table t = connection.getTable(table)) {
      for (byte[] row : rows) {
        found(t.get(new Get(row)), table, row);
      }
      for (int i = 0; i < reads; i++) {
        byte[] row = rows.get(i % rows.size());
        long s = System.nanoTime();
        Result r = t.get(new Get(row));
        latency.recordNanos(System.nanoTime() - s);
        found(r, table, row);
      }
    }
    return latency;
  }

  private static void found(Result r, TableName table, byte[] row) {
    if (r.isEmpty()) {
      throw new IllegalStateException(table + ": row " + Bytes.toStringBinary(row) + " is missing");
    }
  }

  /** A full scan of every version; {@code counts} gets rows, cells and bytes. */
  private void scan(TableName table, long[] counts) throws IOException {
    try (Table t = connection.getTable(table);
        ResultScanner scanner = t.getScanner(fullScan().setCacheBlocks(false))) {
      byte[] lastRow = null;
      for (Result r = scanner.next(); r != null; r = scanner.next()) {
        if (lastRow == null || !Bytes.equals(lastRow, r.getRow())) {
          lastRow = r.getRow();
          counts[0]++;
        }
        for (Cell c : r.rawCells()) {
          counts[1]++;
          counts[2] += cellBytes(c);
        }
      }
    }
  }

  /**
   * Every version of every cell, in parts of a row where a row is large (a result is cut at the
   * client's size limit rather than held whole).
   */
  private static Scan fullScan() {
    return new Scan().readAllVersions().setCaching(SCAN_CACHING).setAllowPartialResults(true);
  }

  /**
   * A cell's bytes uncompressed: as a KeyValue lays it out in a data block before encoding and
   * compression (key and value lengths, row length, row, family length, family, qualifier,
   * timestamp, type, value), tags left out.
   */
  static long cellBytes(Cell c) {
    return 4L
        + 4
        + 2
        + c.getRowLength()
        + 1
        + c.getFamilyLength()
        + c.getQualifierLength()
        + 8
        + 1
        + c.getValueLength();
  }

  private static void shuffle(List<byte[]> list, SplittableRandom rnd) {
    byte[][] a = list.toArray(new byte[0][]);
    for (int i = a.length - 1; i > 0; i--) {
      int j = rnd.nextInt(i + 1);
      byte[] x = a[i];
      a[i] = a[j];
      a[j] = x;
    }
    list.clear();
    list.addAll(Arrays.asList(a));
  }
}
