package org.casebook.archive;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.CellComparator;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.KeyValueUtil;
import org.apache.hadoop.hbase.io.ImmutableBytesWritable;
import org.apache.hadoop.io.serializer.Deserializer;
import org.apache.hadoop.io.serializer.Serialization;
import org.apache.hadoop.io.serializer.Serializer;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Reducer;

/**
 * How the bulk-load job moves cells from mappers to HFile writers, in place of HBase's
 * {@code CellSerialization} + {@code CellSortReducer}. Those hand the writer each cell wrapped in
 * a {@code MapReduceExtendedCell}, whose row accessor copies the row on every call; the ROW bloom
 * filter reads the row byte by byte, so each cell's row was copied once per row byte — 37 % of
 * reduce time (JFR, archive experiment). Here cells travel and arrive as plain {@link KeyValue}s.
 */
final class KeyValueShuffle {
  private KeyValueShuffle() {}

  /** Installs the serialization (ahead of HBase's) and the reducer on a job HBase has configured. */
  static void install(Job job) {
    Configuration conf = job.getConfiguration();
    String[] current = conf.getStrings("io.serializations");
    List<String> order = new ArrayList<>();
    order.add(KeyValueSerialization.class.getName());
    if (current != null) {
      for (String s : current) {
        if (!s.equals(KeyValueSerialization.class.getName())) {
          order.add(s);
        }
      }
    }
    conf.setStrings("io.serializations", order.toArray(new String[0]));
    job.setReducerClass(SortedRowReducer.class);
  }

  /** A {@link KeyValue} as its length and its bytes; read back as a fresh {@link KeyValue}. */
  public static final class KeyValueSerialization implements Serialization<KeyValue> {
    @Override
    public boolean accept(Class<?> c) {
      return c == KeyValue.class;
    }

    @Override
    public Serializer<KeyValue> getSerializer(Class<KeyValue> c) {
      return new Serializer<>() {
        private DataOutputStream out;

        @Override
        public void open(OutputStream os) {
          out = new DataOutputStream(os);
        }

        @Override
        public void serialize(KeyValue kv) throws IOException {
          KeyValue.write(kv, out);
        }

        @Override
        public void close() throws IOException {
          out.close();
        }
      };
    }

    @Override
    public Deserializer<KeyValue> getDeserializer(Class<KeyValue> c) {
      return new Deserializer<>() {
        private DataInputStream in;

        @Override
        public void open(InputStream is) {
          in = new DataInputStream(is);
        }

        @Override
        public KeyValue deserialize(KeyValue ignored) throws IOException {
          // Always a new object: the reducer keeps a row's cells while it sorts them.
          return KeyValueUtil.create(in);
        }

        @Override
        public void close() throws IOException {
          in.close();
        }
      };
    }
  }

  /**
   * Writes one row's cells in HBase's cell order. Cells with identical coordinates (the same
   * record in two input files) are written once, the first seen, as HBase's own reducer does.
   */
  public static final class SortedRowReducer
      extends Reducer<ImmutableBytesWritable, KeyValue, ImmutableBytesWritable, KeyValue> {
    private final List<KeyValue> row = new ArrayList<>();

    @Override
    protected void reduce(ImmutableBytesWritable key, Iterable<KeyValue> cells, Context context)
        throws IOException, InterruptedException {
      row.clear();
      for (KeyValue kv : cells) {
        row.add(kv);
      }
      CellComparator order = CellComparator.getInstance();
      row.sort(order);
      KeyValue previous = null;
      for (KeyValue kv : row) {
        if (previous == null || order.compare(previous, kv) != 0) {
          context.write(key, kv);
        }
        previous = kv;
      }
      row.clear();
    }
  }
}
