package org.casebook.banknote;

import static org.casebook.banknote.BanknoteSchema.B;
import static org.casebook.banknote.BanknoteSchema.D;
import static org.casebook.banknote.BanknoteSchema.I;
import static org.casebook.banknote.BanknoteSchema.IMAGE;
import static org.casebook.banknote.BanknoteSchema.N;
import static org.casebook.banknote.BanknoteSchema.RECORD;
import static org.casebook.banknote.BanknoteSchema.S;

import java.io.IOException;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.BufferedMutatorParams;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.RetriesExhaustedWithDetailsException;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.casebook.core.Futures;
import org.casebook.core.StorageException;
import org.casebook.core.schema.SchemaManager;

/**
 * Every HBase read and write of the banknote system; keys through {@link BanknoteKeys}. Writes are
 * plain Puts of rows derived from each record's identity, so writing a record again rewrites the
 * same cells: at-least-once delivery stores every record exactly once.
 */
final class BanknoteStore {
  private static final long BUFFER_BYTES = 8L << 20;

  /** A stored row: its key (for cursors) and the note it holds. */
  record Row(byte[] key, Note note) {}

  /** A device's time window within a batch (first and last time of its records). */
  record Window(String device, long first, long last) {}

  /**
   * The rows of some notes, built and ready to write: one list of Puts per table, in {@link
   * #tables()} order. Built by the caller's thread, written later (perhaps with others').
   */
  static final class PreparedRows {
    private final List<List<Put>> tables;
    private final int notes;
    private final int hits;

    private PreparedRows(List<List<Put>> tables, int notes, int hits) {
      this.tables = tables;
      this.notes = notes;
      this.hits = hits;
    }

    /** How many notes these rows hold. */
    int notes() {
      return notes;
    }

    /** How many watch-list hits these rows record. */
    int hits() {
      return hits;
    }
  }

  private final Connection connection;
  private final BanknoteSchema schema;
  private final ZoneId zone;

  BanknoteStore(Connection connection, BanknoteSchema schema, ZoneId zone) {
    this.connection = Objects.requireNonNull(connection, "connection is null");
    this.schema = Objects.requireNonNull(schema, "schema is null");
    this.zone = Objects.requireNonNull(zone, "zone is null");
  }

  /**
   * The store on {@code schema}'s tables, creating them when they are not the default namespace's
   * (the platform ensures only what the descriptor lists, which is the default namespace).
   */
  static BanknoteStore open(
      Connection connection, BanknoteSchema schema, ZoneId zone, int retentionYears) {
    if (!schema.isDefault()) {
      new SchemaManager(connection).ensureAll(schema.tables(retentionYears));
    }
    return new BanknoteStore(connection, schema, zone);
  }

  BanknoteSchema schema() {
    return schema;
  }

  /**
   * The rows of {@code notes} in the notes, devices, suspects and batches tables, a hits row for
   * each entry of {@code watch} a note matches, and the settlement's summary rows of their pieces:
   * written with the notes, so a hit and the day's counts are stored when the notes are
   * acknowledged, and a retried batch rewrites its own hits and summaries.
   */
  PreparedRows rows(List<Note> notes, WatchMatcher watch) {
    List<Put> noteRows = new ArrayList<>(notes.size());
    List<Put> deviceRows = new ArrayList<>(notes.size());
    List<Put> suspectRows = new ArrayList<>();
    List<Put> hitRows = new ArrayList<>();
    SettlementStore.Pieces pieces = new SettlementStore.Pieces(zone);
    Map<String, long[]> windows = new LinkedHashMap<>();
    Map<String, Note> firstOfWindow = new LinkedHashMap<>();
    // A batch is usually one file's records: its origin (an MD5) is computed once, not per key.
    String originDevice = null;
    String originSource = null;
    byte[] origin = null;
    long[] window = null;
    Note windowNote = null;
    for (Note n : notes) {
      if (!n.device().equals(originDevice) || !n.source().equals(originSource)) {
        originDevice = n.device();
        originSource = n.source();
        origin = BanknoteKeys.origin(originDevice, originSource);
      }
      byte[] value = NoteCodec.encode(n);
      // Cells carry the time they were stored, not the note's: a file purged and delivered again
      // must be visible again, and a delete marker hides every cell at or before its own time
      // until a major compaction drops both.
      long t = n.time().toEpochMilli();
      Put p = new Put(BanknoteKeys.note(n, origin)).addColumn(N, RECORD, value);
      byte[] image = n.image();
      if (image != null) {
        p.addColumn(I, IMAGE, image);
      }
      noteRows.add(p);
      deviceRows.add(new Put(BanknoteKeys.device(n, origin)).addColumn(D, RECORD, value));
      if (n.verdict() == Verdict.SUSPECT) {
        suspectRows.add(
            new Put(BanknoteKeys.suspect(n, day(n), origin)).addColumn(S, RECORD, value));
      }
      pieces.add(n);
      List<WatchEntry> matched = watch.match(n);
      if (!matched.isEmpty()) {
        int day = day(n);
        for (WatchEntry e : matched) {
          hitRows.add(WatchStore.hitRow(n, day, origin, e, value));
        }
      }
      long[] w;
      if (window != null
          && n.batch().equals(windowNote.batch())
          && n.device().equals(windowNote.device())
          && n.source().equals(windowNote.source())) {
        w = window; // the run of one file's records: no key to build
      } else {
        String group = n.batch() + '\u0000' + n.device() + '\u0000' + n.source();
        w = windows.get(group);
        if (w == null) {
          windows.put(group, new long[] {t, t, n.record()});
          firstOfWindow.put(group, n);
          w = windows.get(group);
        }
        window = w;
        windowNote = n;
      }
      w[0] = Math.min(w[0], t);
      w[1] = Math.max(w[1], t);
      if (n.record() < w[2]) {
        w[2] = n.record();
      }
    }
    List<Put> batchRows = new ArrayList<>(windows.size());
    for (Map.Entry<String, long[]> e : windows.entrySet()) {
      Note n = firstOfWindow.get(e.getKey());
      long[] w = e.getValue();
      byte[] value = new byte[16];
      Bytes.putLong(value, 0, w[0]);
      Bytes.putLong(value, 8, w[1]);
      batchRows.add(
          new Put(BanknoteKeys.BATCH.encode(n.batch(), n.device()))
              .addColumn(B, BanknoteKeys.BATCH_COLUMN.encode(n.source(), w[2]), value));
    }
    return new PreparedRows(
        List.of(noteRows, deviceRows, suspectRows, batchRows, hitRows, pieces.puts()),
        notes.size(),
        hitRows.size());
  }

  /**
   * Deletes every row the notes of one delivered file made (a wrong upload): found through the
   * device's rows of that file's origin (a fuzzy row filter on the region servers), then, per batch
   * they name, the file's cells in {@code batches}, per branch and day its hits and settlement
   * summaries, then the notes and suspects rows, and the devices rows last, since they are what
   * finds the rest: a purge stopped anywhere is finished by running it again. Returns the notes
   * purged.
   */
  long purgeFile(String device, String source) {
    byte[] origin = BanknoteKeys.origin(device, source);
    java.util.Set<String> batches = new java.util.LinkedHashSet<>();
    Map<String, Integer> branchDays = new LinkedHashMap<>();
    forEachFileRow(
        device,
        origin,
        (row, note) -> {
          batches.add(note.batch());
          branchDays.putIfAbsent(note.branch() + '\u0000' + day(note), day(note));
        });
    for (String batch : batches) {
      deleteBatchCells(batch, device, source);
    }
    WatchStore hits = new WatchStore(connection, schema);
    SettlementStore settlement = new SettlementStore(connection, schema);
    for (Map.Entry<String, Integer> e : branchDays.entrySet()) {
      String branch = e.getKey().substring(0, e.getKey().indexOf('\u0000'));
      hits.deleteHits(branch, e.getValue(), origin);
      settlement.deleteFile(branch, e.getValue(), device, source);
    }
    long[] purged = {0};
    List<org.apache.hadoop.hbase.client.Delete> notes = new ArrayList<>();
    List<org.apache.hadoop.hbase.client.Delete> suspects = new ArrayList<>();
    List<org.apache.hadoop.hbase.client.Delete> devices = new ArrayList<>();
    Runnable flush =
        () -> {
          delete(schema.notes(), notes);
          delete(schema.suspects(), suspects);
          delete(schema.devices(), devices);
          purged[0] += devices.size();
          notes.clear();
          suspects.clear();
          devices.clear();
        };
    forEachFileRow(
        device,
        origin,
        (row, n) -> {
          notes.add(new org.apache.hadoop.hbase.client.Delete(BanknoteKeys.note(n, origin)));
          if (n.verdict() == Verdict.SUSPECT) {
            suspects.add(
                new org.apache.hadoop.hbase.client.Delete(BanknoteKeys.suspect(n, day(n), origin)));
          }
          devices.add(new org.apache.hadoop.hbase.client.Delete(row));
          if (devices.size() == 1000) {
            flush.run();
          }
        });
    flush.run();
    return purged[0];
  }

  /** Each devices row of {@code device} whose origin is {@code origin}, with its note. */
  private void forEachFileRow(
      String device, byte[] origin, java.util.function.BiConsumer<byte[], Note> action) {
    forEachFileRow(device, origin, BanknoteKeys.DEVICE.range(device), action);
  }

  /**
   * The notes of one delivered file that {@code device} read in {@code [from, to)} (epoch ms): the
   * settlement's recount of a file whose summary rows overlap.
   */
  List<Note> fileNotes(String device, String source, long from, long to) {
    List<Note> out = new ArrayList<>();
    forEachFileRow(
        device,
        BanknoteKeys.origin(device, source),
        org.casebook.core.key.KeyRange.between(
            BanknoteKeys.DEVICE.prefix(device, from), BanknoteKeys.DEVICE.prefix(device, to)),
        (row, note) -> out.add(note));
    return out;
  }

  private void forEachFileRow(
      String device,
      byte[] origin,
      org.casebook.core.key.KeyRange range,
      java.util.function.BiConsumer<byte[], Note> action) {
    byte[] prefix = BanknoteKeys.DEVICE.prefix(device);
    // prefix | time (8, any) | origin (8, fixed) | record (8, any): every key of the device has
    // this length, so a fuzzy filter matches the file's rows on the region server.
    byte[] template = new byte[prefix.length + 24];
    byte[] mask = new byte[template.length];
    System.arraycopy(prefix, 0, template, 0, prefix.length);
    System.arraycopy(origin, 0, template, prefix.length + 8, origin.length);
    for (int i = prefix.length; i < template.length; i++) {
      mask[i] = (byte) (i >= prefix.length + 8 && i < prefix.length + 16 ? 0 : 1);
    }
    Scan scan =
        range
            .toScan()
            .addFamily(D)
            .setCaching(1000)
            .setCacheBlocks(false)
            .setFilter(
                new org.apache.hadoop.hbase.filter.FuzzyRowFilter(
                    List.of(new org.apache.hadoop.hbase.util.Pair<>(template, mask))));
    try (Table t = connection.getTable(schema.devices());
        ResultScanner s = t.getScanner(scan)) {
      for (Result r : s) {
        byte[] value = r.getValue(D, RECORD);
        if (value != null) {
          action.accept(r.getRow(), NoteCodec.decode(value, null));
        }
      }
    } catch (IOException e) {
      throw StorageException.of("read the rows of a file", e);
    }
  }

  private void deleteBatchCells(String batch, String device, String source) {
    byte[] row = BanknoteKeys.BATCH.encode(batch, device);
    try (Table t = connection.getTable(schema.batches())) {
      Result r = t.get(new org.apache.hadoop.hbase.client.Get(row).addFamily(B));
      org.apache.hadoop.hbase.client.Delete d = new org.apache.hadoop.hbase.client.Delete(row);
      for (Cell c : r.rawCells()) {
        byte[] q = CellUtil.cloneQualifier(c);
        if (source.equals(BanknoteKeys.BATCH_COLUMN.decode(q).string("source"))) {
          d.addColumns(B, q);
        }
      }
      if (!d.isEmpty()) {
        t.delete(d);
      }
    } catch (IOException e) {
      throw StorageException.of("delete a file's batch cells", e);
    }
  }

  private void delete(TableName table, List<org.apache.hadoop.hbase.client.Delete> deletes) {
    if (deletes.isEmpty()) {
      return;
    }
    try (Table t = connection.getTable(table)) {
      t.delete(new ArrayList<>(deletes));
    } catch (IOException e) {
      throw StorageException.of("delete a file's rows", e);
    }
  }

  /** The day (in the bank's zone) that a suspect note is listed under. */
  int day(Note n) {
    return Math.toIntExact(n.time().atZone(zone).toLocalDate().toEpochDay());
  }

  private List<TableName> tables() {
    return List.of(
        schema.notes(),
        schema.devices(),
        schema.suspects(),
        schema.batches(),
        schema.hits(),
        schema.settlement());
  }

  /**
   * Writes the rows of a group of writes together, one multi-Put per table, and returns once every
   * row is in HBase (its WAL). The tables are written side by side: one after the other would add
   * their round trips to the acknowledgement's wait.
   */
  void put(List<PreparedRows> group, ExecutorService sideWork) {
    List<TableName> tables = tables();
    List<List<Put>> all = new ArrayList<>(tables.size());
    for (int table = 0; table < tables.size(); table++) {
      List<Put> puts = new ArrayList<>();
      for (PreparedRows rows : group) {
        puts.addAll(rows.tables.get(table));
      }
      all.add(puts);
    }
    List<Future<?>> pending = new ArrayList<>();
    for (int i = 1; i < all.size(); i++) {
      List<Put> puts = all.get(i);
      TableName table = tables.get(i);
      if (!puts.isEmpty()) {
        pending.add(sideWork.submit(() -> put(table, puts)));
      }
    }
    put(tables.get(0), all.get(0));
    for (Future<?> f : pending) {
      Futures.await(f);
    }
  }

  private void put(TableName table, List<Put> puts) {
    try (Table t = connection.getTable(table)) {
      t.put(puts);
    } catch (IOException e) {
      throw StorageException.of("store notes in " + table, e);
    }
  }

  /** Buffered writing for bulk loads; {@link Writer#flush} returns once everything is durable. */
  Writer writer() {
    return new Writer();
  }

  /**
   * BufferedMutators on the tables a note writes to; failures are collected and raised by flush or
   * close.
   */
  final class Writer implements AutoCloseable {
    private final List<BufferedMutator> mutators = new ArrayList<>();
    private final AtomicReference<RetriesExhaustedWithDetailsException> failure =
        new AtomicReference<>();

    private Writer() {
      try {
        for (TableName t : tables()) {
          mutators.add(
              connection.getBufferedMutator(
                  new BufferedMutatorParams(t)
                      .writeBufferSize(BUFFER_BYTES)
                      .listener((e, m) -> failure.compareAndSet(null, e))));
        }
      } catch (IOException e) {
        closeQuietlyAfter(e);
        throw StorageException.of("open note writers", e);
      }
    }

    /** Buffers the rows of {@code notes} and their hits on {@code watch}; returns the hits. */
    int write(List<Note> notes, WatchMatcher watch) {
      PreparedRows rows = rows(notes, watch);
      List<List<Put>> all = rows.tables;
      try {
        for (int i = 0; i < all.size(); i++) {
          if (!all.get(i).isEmpty()) {
            mutators.get(i).mutate(all.get(i));
          }
        }
      } catch (IOException e) {
        throw StorageException.of("buffer notes", e);
      }
      raise();
      return rows.hits();
    }

    void flush() {
      try {
        for (BufferedMutator m : mutators) {
          m.flush();
        }
      } catch (IOException e) {
        throw StorageException.of("flush notes", e);
      }
      raise();
    }

    private void raise() {
      RetriesExhaustedWithDetailsException e = failure.get();
      if (e != null) {
        throw StorageException.of("store notes", e);
      }
    }

    private void closeQuietlyAfter(IOException cause) {
      for (BufferedMutator m : mutators) {
        try {
          m.close();
        } catch (IOException e) {
          cause.addSuppressed(e);
        }
      }
    }

    @Override
    public void close() {
      IOException first = null;
      for (BufferedMutator m : mutators) {
        try {
          m.close();
        } catch (IOException e) {
          if (first == null) {
            first = e;
          } else {
            first.addSuppressed(e);
          }
        }
      }
      if (first != null) {
        throw StorageException.of("close note writers", first);
      }
      raise();
    }
  }

  /** Notes rows (a serial's history), with their images when {@code images}. */
  List<Row> scanNotes(RowWindow window, boolean images) {
    Scan scan = scan(window).addFamily(N);
    if (images) {
      scan.addFamily(I);
    }
    return scan(schema.notes(), scan, N);
  }

  /** Devices rows (a device's window, a batch's part of it). */
  List<Row> scanDevices(RowWindow window) {
    return scan(schema.devices(), scan(window).addFamily(D), D);
  }

  /** Suspects rows (a branch's day). */
  List<Row> scanSuspects(RowWindow window) {
    return scan(schema.suspects(), scan(window).addFamily(S), S);
  }

  /** A scan of the window, fetching its rows in one round trip where they fit. */
  private static Scan scan(RowWindow window) {
    return new Scan()
        .withStartRow(window.start(), window.startInclusive())
        .withStopRow(window.stop(), false)
        .setLimit(window.limit())
        .setCaching(window.limit());
  }

  private List<Row> scan(TableName table, Scan scan, byte[] family) {
    List<Row> out = new ArrayList<>();
    try (Table t = connection.getTable(table);
        ResultScanner s = t.getScanner(scan)) {
      for (Result r : s) {
        byte[] value = r.getValue(family, RECORD);
        if (value != null) {
          out.add(new Row(r.getRow(), NoteCodec.decode(value, r.getValue(I, IMAGE))));
        }
      }
      return out;
    } catch (IOException e) {
      throw StorageException.of("scan " + table, e);
    }
  }

  /** The devices of a batch with each one's time window, in device order. */
  List<Window> batchWindows(String batch) {
    List<Window> out = new ArrayList<>();
    Scan scan = BanknoteKeys.BATCH.range(batch).toScan().addFamily(B);
    try (Table t = connection.getTable(schema.batches());
        ResultScanner s = t.getScanner(scan)) {
      for (Result r : s) {
        String device = BanknoteKeys.BATCH.decode(r.getRow()).string("device");
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        for (Cell c : r.rawCells()) {
          byte[] v = CellUtil.cloneValue(c);
          first = Math.min(first, Bytes.toLong(v, 0));
          last = Math.max(last, Bytes.toLong(v, 8));
        }
        out.add(new Window(device, first, last));
      }
      return out;
    } catch (IOException e) {
      throw StorageException.of("read batch " + batch, e);
    }
  }
}
