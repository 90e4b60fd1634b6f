package org.casebook.core.batch.hfile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.mapreduce.MultiTableHFileOutputFormat;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

class TableIndexTest {
  @Test
  void indexKeysSortAsHBaseCompositeKeysAndTurnBackIntoThem() {
    // "events" is a prefix of "events2": as composite keys "ns:events;…" sorts after
    // "ns:events2;…" (';' > '2'), which the index order must follow.
    List<TableName> tables =
        List.of(
            TableName.valueOf("ns", "events"),
            TableName.valueOf("ns", "events2"),
            TableName.valueOf("a", "z"));
    Configuration conf = new Configuration(false);
    TableIndex.set(conf, tables);
    TableIndex index = TableIndex.of(conf);
    List<byte[]> composites = new ArrayList<>();
    List<byte[]> keys = new ArrayList<>();
    for (TableName t : tables) {
      for (String row : new String[] {"", "0", "1\u0000", "a", "ab", "b"}) {
        byte[] r = Bytes.toBytes(row);
        composites.add(MultiTableHFileOutputFormat.createCompositeKey(t.getName(), r));
        keys.add(index.key(t.getName(), r));
      }
    }
    for (int i = 0; i < keys.size(); i++) {
      for (int j = 0; j < keys.size(); j++) {
        assertThat(Integer.signum(Bytes.compareTo(keys.get(i), keys.get(j))))
            .as("%s vs %s", Bytes.toString(composites.get(i)), Bytes.toString(composites.get(j)))
            .isEqualTo(Integer.signum(Bytes.compareTo(composites.get(i), composites.get(j))));
      }
      byte[] padded = Bytes.add(Bytes.toBytes("xy"), keys.get(i));
      assertThat(index.composite(padded, 2, keys.get(i).length)).isEqualTo(composites.get(i));
      assertThat(index.key(composites.get(i))).isEqualTo(keys.get(i));
    }
    assertThatThrownBy(() -> index.key(Bytes.toBytes("ns:other"), new byte[0]))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("ns:other");
  }
}
