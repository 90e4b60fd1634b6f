package org.casebook.core.batch.hfile;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apache.hadoop.hbase.CellComparator;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.io.ImmutableBytesWritable;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Reducer;

/**
 * How a bulk-load job moves cells from mappers to HFile writers, in place of HBase's per-cell
 * records ({@code CellSerialization} + {@code CellSortReducer}). Two costs measured with JFR on the
 * archive experiment went away: (1) a map output record per cell — ten per input record, each one
 * sorted and merged on its own; here a record is one row's cells, 3.4× fewer records; (2) HBase's
 * reducer hands the writer each cell wrapped in a {@code MapReduceExtendedCell}, whose row accessor
 * copies the row on every call, and the ROW bloom filter reads the row byte by byte — 37 % of
 * reduce time. Here cells arrive as plain {@link KeyValue}s.
 */
public final class KeyValueShuffle {
  private KeyValueShuffle() {}

  /**
   * Installs the row-per-record value and its reducer on a job HBase's HFile set-up has configured.
   */
  static void install(Job job) {
    job.setMapOutputValueClass(RowCells.class);
    job.setReducerClass(SortedRowReducer.class);
  }

  /**
   * Sorts {@code cells} in place into HBase's cell order and returns them without repeats: of cells
   * with identical coordinates (the same record in two input files) the first seen stays, as with
   * HBase's own reducer.
   */
  static List<KeyValue> sortedDistinct(List<KeyValue> cells) {
    CellComparator order = CellComparator.getInstance();
    cells.sort(order);
    List<KeyValue> distinct = new ArrayList<>(cells.size());
    for (KeyValue kv : cells) {
      if (distinct.isEmpty() || order.compare(distinct.get(distinct.size() - 1), kv) != 0) {
        distinct.add(kv);
      }
    }
    return distinct;
  }

  /** One row's cells in one table: the map output value. */
  public static final class RowCells implements Writable {
    private List<KeyValue> cells;

    /** For Hadoop's deserializer. */
    public RowCells() {
      this.cells = List.of();
    }

    RowCells(List<KeyValue> cells) {
      this.cells = Objects.requireNonNull(cells, "cells is null");
    }

    List<KeyValue> cells() {
      return cells;
    }

    @Override
    public void write(DataOutput out) throws IOException {
      int total = 0;
      for (KeyValue kv : cells) {
        total += Bytes.SIZEOF_INT + kv.getLength();
      }
      out.writeInt(total);
      for (KeyValue kv : cells) {
        out.writeInt(kv.getLength());
        out.write(kv.getBuffer(), kv.getOffset(), kv.getLength());
      }
    }

    /**
     * Reads into new objects (one array per row): the reducer keeps earlier values' cells while it
     * sorts.
     */
    @Override
    public void readFields(DataInput in) throws IOException {
      byte[] bytes = new byte[in.readInt()];
      in.readFully(bytes);
      List<KeyValue> read = new ArrayList<>();
      for (int pos = 0; pos < bytes.length; ) {
        int length = Bytes.toInt(bytes, pos);
        read.add(new KeyValue(bytes, pos + Bytes.SIZEOF_INT, length));
        pos += Bytes.SIZEOF_INT + length;
      }
      cells = read;
    }
  }

  /**
   * Writes one row's cells, from every map output value for it, sorted and without repeats, under
   * HBase's composite key ({@code table;row}) that its HFile writers expect.
   */
  public static final class SortedRowReducer
      extends Reducer<ImmutableBytesWritable, RowCells, ImmutableBytesWritable, KeyValue> {
    private final List<KeyValue> row = new ArrayList<>();
    private TableIndex index;

    @Override
    protected void setup(Context context) {
      index = TableIndex.of(context.getConfiguration());
      // A task on YARN runs in a JVM of its own, whose HBase has not loaded the codecs yet.
      org.casebook.core.schema.PureJavaCodecs.install(context.getConfiguration());
    }

    @Override
    protected void reduce(ImmutableBytesWritable key, Iterable<RowCells> values, Context context)
        throws IOException, InterruptedException {
      row.clear();
      for (RowCells v : values) {
        row.addAll(v.cells());
      }
      ImmutableBytesWritable composite =
          new ImmutableBytesWritable(index.composite(key.get(), key.getOffset(), key.getLength()));
      for (KeyValue kv : sortedDistinct(row)) {
        context.write(composite, kv);
      }
      row.clear();
    }
  }
}
