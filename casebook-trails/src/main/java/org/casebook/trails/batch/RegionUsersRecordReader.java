package org.casebook.trails.batch;

import java.io.IOException;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.casebook.core.key.KeyRange;
import org.casebook.trails.TrailsRowCodec;

/**
 * Walks one events region with one Scan and hands the mapper each user whose rows start in it, with
 * that user's rows in the date range (none for a user whose events all lie outside it). A user's
 * rows are contiguous, so the walk groups them as they come. A region boundary inside a user's rows
 * (HBase may split a region at any row) leaves the user to the region its first row is in: the
 * region after it skips that user's leading rows, and the region before it reads the rest with one
 * more Scan bounded by the user's rows.
 */
final class RegionUsersRecordReader extends RecordReader<Text, Result[]> {
  private static final int CACHING = 1000;

  private byte[] start;
  private byte[] end;
  private LocalDate from;
  private LocalDate to;
  private Connection connection;
  private Table table;
  private ResultScanner scanner;
  private Result lookahead;
  private boolean done;
  private final Text key = new Text();
  private Result[] value;

  @Override
  public void initialize(InputSplit split, TaskAttemptContext context) throws IOException {
    Configuration conf = context.getConfiguration();
    EventsRegionSplit region = (EventsRegionSplit) split;
    start = region.start();
    end = region.end();
    from = LocalDate.parse(conf.get(UserRegionInputFormat.FROM));
    to = LocalDate.parse(conf.get(UserRegionInputFormat.TO));
    connection = ConnectionFactory.createConnection(conf);
    table =
        connection.getTable(
            TrailsRowCodec.in(
                    conf.get(UserRegionInputFormat.NAMESPACE, TrailsRowCodec.DEFAULT_NAMESPACE))
                .events());
    scanner = table.getScanner(scan(start, end));
  }

  /** The rows from {@code first} to {@code stop} (empty: the table's end), read in bulk. */
  private static Scan scan(byte[] first, byte[] stop) {
    return KeyRange.between(first, stop)
        .toScan()
        .setCaching(CACHING)
        // A whole region is read once: keep it from evicting the blocks of latency-bound reads.
        .setCacheBlocks(false);
  }

  @Override
  public boolean nextKeyValue() throws IOException {
    while (true) {
      Result first = nextRow();
      if (first == null) {
        done = true;
        return false;
      }
      String uid = TrailsRowCodec.userOf(first.getRow());
      KeyRange rows = TrailsRowCodec.userRows(uid);
      KeyRange wanted = TrailsRowCodec.userDays(uid, from, to);
      boolean owned = Bytes.compareTo(rows.start(), start) >= 0;
      List<Result> kept = new ArrayList<>();
      for (Result r = first; r != null; r = nextRowWithin(rows)) {
        if (owned && wanted.contains(r.getRow())) {
          kept.add(r);
        }
      }
      if (!owned) {
        continue;
      }
      if (end.length > 0 && !beforeEnd(rows.stop())) {
        // The region ends inside this user's rows: read the rest of them from where it ends.
        try (ResultScanner rest = table.getScanner(scan(end, rows.stop()))) {
          for (Result r : rest) {
            if (wanted.contains(r.getRow())) {
              kept.add(r);
            }
          }
        }
      }
      key.set(uid);
      value = kept.toArray(new Result[0]);
      return true;
    }
  }

  private boolean beforeEnd(byte[] stop) {
    return stop.length > 0 && Bytes.compareTo(stop, end) <= 0;
  }

  private Result nextRow() throws IOException {
    if (lookahead != null) {
      Result r = lookahead;
      lookahead = null;
      return r;
    }
    return scanner.next();
  }

  /** The next row if it belongs to {@code rows}; else null, keeping it for the next user. */
  private Result nextRowWithin(KeyRange rows) throws IOException {
    Result r = nextRow();
    if (r != null && !rows.contains(r.getRow())) {
      lookahead = r;
      return null;
    }
    return r;
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
    // How many users a region holds is not known until it has been read.
    return done ? 1f : 0f;
  }

  @Override
  public void close() throws IOException {
    try {
      if (scanner != null) {
        scanner.close();
      }
    } finally {
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
}
