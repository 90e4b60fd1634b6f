package org.casebook.docs;

import static org.casebook.docs.DocsSchema.BI;
import static org.casebook.docs.DocsSchema.CORRECTIONS;
import static org.casebook.docs.DocsSchema.DI;
import static org.casebook.docs.DocsSchema.FIELDS;
import static org.casebook.docs.DocsSchema.H;
import static org.casebook.docs.DocsSchema.STATE_OFFSET;
import static org.casebook.docs.DocsSchema.VERSION;

import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.CheckAndMutateResult;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Increment;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.RowMutations;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.BinaryComponentComparator;
import org.apache.hadoop.hbase.filter.SingleColumnValueFilter;
import org.apache.hadoop.hbase.util.Bytes;
import org.casebook.core.StorageException;

/**
 * Every HBase read and write of document rows (one table per type): reads assembled into typed
 * values, the conditional writes of single documents, counters, and scans of live rows. Keys come
 * from {@link Targets} and {@link DocsKeys}, cells from {@link DocCodec}; storage errors become
 * {@link StorageException}s.
 */
final class DocumentStore {
  /** Rows a whole-table scan reads per round trip (index repair). */
  private static final int FULL_SCAN_CACHING = 500;

  private final Connection connection;

  DocumentStore(Connection connection) {
    this.connection = connection;
  }

  /**
   * A filter passing rows that are live and (if {@code base} is given) still have that base: the
   * bytes of the version cell after the version, compared in place.
   */
  static SingleColumnValueFilter liveFilter(Long base) {
    byte[] component = base == null ? new byte[] {DocCodec.LIVE} : new byte[9];
    if (base != null) {
      component[0] = DocCodec.LIVE;
      Bytes.putLong(component, 1, base);
    }
    SingleColumnValueFilter f =
        new SingleColumnValueFilter(
            DI,
            VERSION,
            CompareOperator.EQUAL,
            new BinaryComponentComparator(component, STATE_OFFSET));
    f.setFilterIfMissing(true);
    return f;
  }

  // ---- reads

  /** The row of {@code t}, or empty if it was never written. */
  Optional<StoredRow> read(Target t) {
    try (Table table = connection.getTable(t.table())) {
      return rowOf(table.get(document(t.row())), t.type());
    } catch (IOException e) {
      throw StorageException.of("read document", e);
    }
  }

  /** Several rows of {@code type} in one batched call, in the order asked. */
  List<Optional<StoredRow>> readAll(DocType type, TableName table, List<byte[]> rows) {
    if (rows.isEmpty()) {
      return List.of();
    }
    List<Get> gets = new ArrayList<>(rows.size());
    for (byte[] r : rows) {
      gets.add(document(r));
    }
    try (Table t = connection.getTable(table)) {
      Result[] results = t.get(gets);
      List<Optional<StoredRow>> out = new ArrayList<>(results.length);
      for (Result r : results) {
        out.add(rowOf(r, type));
      }
      return out;
    } catch (IOException e) {
      throw StorageException.of("read documents", e);
    }
  }

  /** A read of a document row: its families, never its history. */
  private static Get document(byte[] row) {
    return new Get(row).addFamily(BI).addFamily(DI);
  }

  /**
   * The document a row shows: the fields of the family cells ({@code BI:_d}, {@code DI:_d}) and the
   * counter cells at or after the base, typed as {@code type} declares them. A whole-document write
   * stores its version as the base, so every cell of a replaced state stops showing without a read
   * or a delete. Corrected fields show the values the person left, whatever the base: a crawl's
   * write never hides a correction.
   */
  private static Optional<StoredRow> rowOf(Result r, DocType type) {
    if (r == null || r.isEmpty()) {
      return Optional.empty();
    }
    Optional<RowState> state = DocCodec.state(r.getValue(DI, VERSION));
    if (state.isEmpty()) {
      return Optional.empty();
    }
    long base = state.get().base();
    Map<String, byte[]> cells = new HashMap<>();
    long maxTs = 0;
    for (Cell c : r.rawCells()) {
      maxTs = Math.max(maxTs, c.getTimestamp());
      if (c.getTimestamp() < base) {
        continue;
      }
      String name =
          DocsKeys.FIELD
              .decode(c.getQualifierArray(), c.getQualifierOffset(), c.getQualifierLength())
              .string("field");
      if (CellUtil.matchingQualifier(c, FIELDS)) {
        DocCodec.decodeFamily(c.getValueArray(), c.getValueOffset(), c.getValueLength(), cells);
      } else if (!name.startsWith("_")) {
        cells.put(name, CellUtil.cloneValue(c)); // a counter
      }
    }
    CorrectionState corrections =
        state.get().live()
            ? CorrectionCodec.decode(r.getValue(DI, CORRECTIONS)).orElse(null)
            : null;
    if (corrections != null) {
      corrections
          .marks()
          .forEach(
              (field, mark) -> {
                if (mark.value() == null) {
                  cells.remove(field);
                } else {
                  cells.put(field, mark.value());
                }
              });
    }
    Map<String, Object> values = new LinkedHashMap<>();
    for (FieldDef f : type.fields()) {
      byte[] cell = cells.get(f.name());
      if (cell != null) {
        values.put(f.name(), DocCodec.decode(f.kind(), cell));
      }
    }
    return Optional.of(new StoredRow(r.getRow(), state.get(), maxTs, values, corrections));
  }

  /**
   * Each live document of {@code table} whose version cell is older than {@code beforeVersion} (its
   * last change before then), with that version: one scan of the version cells, narrowed by the
   * region servers to that time range (store files newer than it are not read).
   */
  void liveBefore(
      TableName table, long beforeVersion, java.util.function.ObjLongConsumer<byte[]> rows) {
    Scan scan = new Scan().addColumn(DI, VERSION).setCaching(1000).setCacheBlocks(false);
    try {
      scan.setTimeRange(0, beforeVersion);
    } catch (IOException e) {
      throw new IllegalArgumentException("bad time range [0, " + beforeVersion + ")", e);
    }
    try (Table t = connection.getTable(table);
        ResultScanner s = t.getScanner(scan)) {
      for (Result r : s) {
        Optional<RowState> state = DocCodec.state(r.getValue(DI, VERSION));
        if (state.isPresent() && state.get().live()) {
          rows.accept(r.getRow(), state.get().version());
        }
      }
    } catch (IOException e) {
      throw StorageException.of("find expired documents", e);
    }
  }

  /** Whether each row is a live document, reading only its version cell (comment parents). */
  List<Boolean> liveAll(TableName table, List<byte[]> rows) {
    List<Get> gets = new ArrayList<>(rows.size());
    for (byte[] r : rows) {
      gets.add(new Get(r).addColumn(DI, VERSION));
    }
    try (Table t = connection.getTable(table)) {
      Result[] results = t.get(gets);
      List<Boolean> out = new ArrayList<>(results.length);
      for (Result r : results) {
        out.add(DocCodec.state(r.getValue(DI, VERSION)).map(RowState::live).orElse(false));
      }
      return out;
    } catch (IOException e) {
      throw StorageException.of("read parents", e);
    }
  }

  /**
   * Whether each row has a corrections cell (a person edited the document), in order: existence
   * checks only, no cell sent back.
   */
  List<Boolean> correctedAll(TableName table, List<byte[]> rows) {
    if (rows.isEmpty()) {
      return List.of();
    }
    List<Get> gets = new ArrayList<>(rows.size());
    for (byte[] r : rows) {
      gets.add(new Get(r).addColumn(DI, CORRECTIONS));
    }
    try (Table t = connection.getTable(table)) {
      boolean[] exists = t.exists(gets);
      List<Boolean> out = new ArrayList<>(exists.length);
      for (boolean e : exists) {
        out.add(e);
      }
      return out;
    } catch (IOException e) {
      throw StorageException.of("read corrections", e);
    }
  }

  /**
   * The live rows of {@code range} in {@code table}, read whole and typed as {@code type}: comments
   * of one parent, or every document of a type for a repair.
   */
  List<StoredRow> scanLive(DocType type, TableName table, RowRange range) {
    Scan scan =
        new Scan()
            .withStartRow(range.start(), range.startInclusive())
            .withStopRow(range.stop(), range.stopInclusive())
            .addFamily(BI)
            .addFamily(DI)
            .setReversed(range.reversed())
            // Reversed scans (newest comments first) refuse on-demand family loading, which the
            // filter would otherwise turn on; rows are read whole anyway.
            .setFilter(liveFilter(null))
            .setLoadColumnFamiliesOnDemand(false);
    if (range.limit() > 0) {
      scan.setLimit(range.limit()).setCaching(range.limit());
    } else {
      scan.setCaching(FULL_SCAN_CACHING);
    }
    List<StoredRow> out = new ArrayList<>();
    try (Table t = connection.getTable(table);
        ResultScanner s = t.getScanner(scan)) {
      for (Result r : s) {
        out.add(rowOf(r, type).orElseThrow());
      }
      return out;
    } catch (IOException e) {
      throw StorageException.of("scan documents", e);
    }
  }

  // ---- single-document writes

  /**
   * Stores {@code plan} if the row's version cell is still the one it was worked out against (none:
   * the row was never written); false if another writer got there first. Versions are unique, so
   * the whole cell is the same exactly when the version is.
   */
  boolean commit(WritePlan plan) {
    Target t = plan.target();
    if (plan.created()) {
      return checkAndMutate(
          t.table(),
          plan.expected(),
          mutations(DocCodec.wholeDocument(t.row(), cells(plan), plan.version()), null),
          "write document");
    }
    Put put =
        plan.mode() == WriteMode.INDEX
            ? DocCodec.wholeDocument(t.row(), cells(plan), plan.version())
            : new Put(t.row());
    Delete delete = new Delete(t.row());
    if (plan.mode() != WriteMode.INDEX) {
      overLive(plan, put, delete);
    }
    withCorrections(plan, put, delete);
    return checkAndMutate(t.table(), plan.expected(), mutations(put, delete), "write document");
  }

  /**
   * The corrections cell and the history entry of a write, in its row mutation: the change and its
   * record are stored together or not at all, and a retried write stores the same cells again.
   */
  private static void withCorrections(WritePlan plan, Put put, Delete delete) {
    long version = plan.version();
    if (plan.corrections() != null) {
      put.addColumn(DI, CORRECTIONS, version, CorrectionCodec.encode(plan.corrections()));
    }
    if (plan.history() != null) {
      put.addColumn(
          H,
          CorrectionCodec.historyColumn(version),
          version,
          CorrectionCodec.encodeEntry(plan.history()));
    }
    for (long old : plan.evictedHistory()) {
      delete.addColumns(H, CorrectionCodec.historyColumn(old), version);
    }
  }

  private static DocumentCells cells(WritePlan plan) {
    return DocCodec.cells(plan.target().type(), plan.values());
  }

  /**
   * The cells of a PUT or PATCH over a live document, all at the plan's version, and the version
   * cell (the base stays: this is not a whole-document write). A family's fields but the counters
   * are one cell, written whole with the family's new state: a PATCH writes the cells of the
   * families it names fields of (so a DI-only patch writes no BI cell; a BI patch rewrites the BI
   * cell, its other fields as read) and the counters it names; a PUT writes both family cells and
   * no counter. A counter set to null gets a delete marker (an increment adds to the newest counter
   * cell, which must be a number).
   */
  private static void overLive(WritePlan plan, Put put, Delete delete) {
    Target t = plan.target();
    long version = plan.version();
    boolean patch = plan.mode() == WriteMode.PATCH;
    EnumSet<Family> families = EnumSet.noneOf(Family.class);
    for (FieldDef f : t.type().fields()) {
      if (patch && !plan.named().contains(f.name())) {
        continue;
      }
      if (!FieldDef.isCounter(f)) {
        families.add(f.family());
      } else if (patch) {
        byte[] family = DocsSchema.family(f.family());
        byte[] qualifier = DocsKeys.FIELD.encode(f.name());
        Object v = plan.values().get(f.name());
        if (v != null) {
          put.addColumn(family, qualifier, version, DocCodec.encode(f.kind(), v));
        } else {
          delete.addColumns(family, qualifier, version - 1);
        }
      }
    }
    for (Family family : Family.values()) {
      if (families.contains(family) || (!patch && hasFields(t.type(), family))) {
        put.addColumn(
            DocsSchema.family(family),
            FIELDS,
            version,
            DocCodec.encodeFamily(t.type(), family, plan.values()));
      }
    }
    put.addColumn(
        DI, VERSION, version, DocCodec.stateCell(version, DocCodec.LIVE, plan.expected().base()));
  }

  /** Whether a type has fields in {@code family} that live in its family cell (not counters). */
  private static boolean hasFields(DocType type, Family family) {
    return type.fields().stream().anyMatch(f -> f.family() == family && !FieldDef.isCounter(f));
  }

  /**
   * Marks the document deleted if its version cell is still {@code read}: the version cell becomes
   * (version, deleted, base = version), and family delete markers below it free the space (the base
   * alone already hides every older cell, also from a slower write with a lower version arriving
   * after a major compaction dropped the markers). The corrections cell and the history go with
   * them. False if another writer got there first.
   */
  boolean markDeleted(Target t, RowState read, long version) {
    Put put =
        new Put(t.row())
            .addColumn(
                DI, VERSION, version, DocCodec.stateCell(version, DocCodec.DELETED, version));
    Delete delete =
        new Delete(t.row())
            .addFamily(BI, version - 1)
            .addFamily(DI, version - 1)
            .addFamily(H, version - 1);
    return checkAndMutate(t.table(), read, mutations(put, delete), "delete document");
  }

  private boolean checkAndMutate(
      TableName table, RowState expected, RowMutations mutations, String what) {
    try (Table t = connection.getTable(table)) {
      return t.checkAndMutate(conditional(expected, mutations)).isSuccess();
    } catch (IOException e) {
      throw StorageException.of(what, e);
    }
  }

  private static CheckAndMutate conditional(RowState expected, RowMutations mutations) {
    CheckAndMutate.Builder b = CheckAndMutate.newBuilder(mutations.getRow());
    return expected == null
        ? b.ifNotExists(DI, VERSION).build(mutations)
        : b.ifEquals(DI, VERSION, DocCodec.stateCell(expected)).build(mutations);
  }

  private static RowMutations mutations(Put put, Delete delete) {
    try {
      return delete == null || delete.isEmpty()
          ? RowMutations.of(List.of(put))
          : RowMutations.of(List.of(put, delete));
    } catch (IOException e) {
      throw new IllegalStateException("mutations of one row refused", e);
    }
  }

  // ---- counters

  /**
   * What an increment of {@code field} depends on: the row's version cell and its newest timestamp
   * (no values); empty if the row was never written.
   */
  Optional<StoredRow> readCounter(Target t, FieldDef field) {
    Get get =
        new Get(t.row())
            .addColumn(DI, VERSION)
            .addColumn(DocsSchema.family(field.family()), DocsKeys.FIELD.encode(field.name()));
    try (Table table = connection.getTable(t.table())) {
      Result r = table.get(get);
      Optional<RowState> state = DocCodec.state(r.getValue(DI, VERSION));
      if (state.isEmpty()) {
        return Optional.empty();
      }
      long maxTs = 0;
      for (Cell c : r.rawCells()) {
        maxTs = Math.max(maxTs, c.getTimestamp());
      }
      return Optional.of(new StoredRow(t.row(), state.get(), maxTs, Map.of(), null));
    } catch (IOException e) {
      throw StorageException.of("read counter", e);
    }
  }

  /**
   * Adds {@code by} to a long field if the document is live and its base is still {@code base} (no
   * whole-document write replaced it since it was read); empty otherwise. HBase adds to the newest
   * counter cell at or after the base (an older one belongs to a replaced state) and stamps the sum
   * one after it; with no such cell the sum is {@code by}, stamped {@code stamp} — a version after
   * everything the caller read, so the cell is shown.
   */
  Optional<Long> increment(Target t, FieldDef field, long by, long base, long stamp) {
    byte[] row = t.row();
    byte[] family = DocsSchema.family(field.family());
    byte[] qualifier = DocsKeys.FIELD.encode(field.name());
    try (Table table = connection.getTable(t.table())) {
      Increment inc =
          new Increment(row)
              .add(new KeyValue(row, family, qualifier, stamp, Bytes.toBytes(by)))
              .setTimeRange(base, Long.MAX_VALUE);
      CheckAndMutateResult r =
          table.checkAndMutate(
              CheckAndMutate.newBuilder(row).ifMatches(liveFilter(base)).build(inc));
      return r.isSuccess()
          ? Optional.of(Bytes.toLong(r.getResult().getValue(family, qualifier)))
          : Optional.empty();
    } catch (IOException e) {
      throw StorageException.of("increment " + field.name(), e);
    }
  }
}
