package org.casebook.trails.batch;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.mapreduce.InputSplit;

/**
 * One region of the events table: its row range {@code [start, end)} (empty: open) and where it is
 * served. The split owns the users whose first possible row falls in its range.
 */
public final class EventsRegionSplit extends InputSplit implements Writable {
  private String region = "";
  private String host = "";
  private byte[] start = new byte[0];
  private byte[] end = new byte[0];

  /** For Hadoop's deserialisation. */
  public EventsRegionSplit() {}

  EventsRegionSplit(String region, String host, byte[] start, byte[] end) {
    this.region = region;
    this.host = host;
    this.start = start.clone();
    this.end = end.clone();
  }

  byte[] start() {
    return start.clone();
  }

  byte[] end() {
    return end.clone();
  }

  @Override
  public long getLength() {
    // Hadoop orders splits by length; regions are not sized here, so all weigh the same.
    return 1;
  }

  @Override
  public String[] getLocations() {
    return host.isEmpty() ? new String[0] : new String[] {host};
  }

  @Override
  public void write(DataOutput out) throws IOException {
    Text.writeString(out, region);
    Text.writeString(out, host);
    Bytes.writeByteArray(out, start);
    Bytes.writeByteArray(out, end);
  }

  @Override
  public void readFields(DataInput in) throws IOException {
    region = Text.readString(in);
    host = Text.readString(in);
    start = Bytes.readByteArray(in);
    end = Bytes.readByteArray(in);
  }

  @Override
  public String toString() {
    return "EventsRegionSplit["
        + region
        + " @ "
        + host
        + ", "
        + Bytes.toStringBinary(start)
        + " .. "
        + Bytes.toStringBinary(end)
        + "]";
  }
}
