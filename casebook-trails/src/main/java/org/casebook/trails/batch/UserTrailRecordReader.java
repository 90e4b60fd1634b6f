package org.casebook.trails.batch;

import java.io.IOException;
import java.time.LocalDate;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.casebook.trails.Behaviours;
import org.casebook.trails.TrailsRowCodec;

/**
 * Seed 000's PrefixRecordReader: for each user of the split, builds the Gets for every day of the
 * range and every behaviour, issues them in one batch, and hands the results to the mapper.
 */
final class UserTrailRecordReader extends RecordReader<Text, Result[]> {
  private List<String> users;
  private int next;
  private LocalDate firstDay;
  private LocalDate lastDay;
  private Connection connection;
  private Table table;
  private final Text key = new Text();
  private Result[] value;
  private Behaviours behaviours;

  @Override
  public void initialize(InputSplit split, TaskAttemptContext context) throws IOException {
    Configuration conf = context.getConfiguration();
    users = ((UserRegionSplit) split).users();
    firstDay = LocalDate.parse(conf.get(UserRegionInputFormat.FROM));
    lastDay = LocalDate.parse(conf.get(UserRegionInputFormat.TO));
    behaviours = JobBehaviours.of(conf);
    connection = ConnectionFactory.createConnection(conf);
    table =
        connection.getTable(
            TrailsRowCodec.in(
                    conf.get(UserRegionInputFormat.NAMESPACE, TrailsRowCodec.DEFAULT_NAMESPACE))
                .events());
  }

  @Override
  public boolean nextKeyValue() throws IOException {
    if (next >= users.size()) {
      return false;
    }
    String uid = users.get(next++);
    List<Get> gets = TrailsRowCodec.gets(uid, firstDay, lastDay, behaviours);
    key.set(uid);
    value = table.get(gets);
    return true;
  }

  @Override
  public Text getCurrentKey() {
    return key;
  }

  @Override
  public Result[] getCurrentValue() {
    return value;
  }

  @Override
  public float getProgress() {
    return users.isEmpty() ? 1f : (float) next / users.size();
  }

  @Override
  public void close() throws IOException {
    try {
      if (table != null) {
        table.close();
      }
    } finally {
      if (connection != null) {
        connection.close();
      }
    }
  }
}
