package org.casebook.trails.batch;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.mapreduce.InputSplit;

/** The users whose rows one region holds, and where that region is served. */
public final class UserRegionSplit extends InputSplit implements Writable {
  private String region = "";
  private String host = "";
  private List<String> users = new ArrayList<>();

  /** For Hadoop's deserialisation. */
  public UserRegionSplit() {}

  UserRegionSplit(String region, String host, List<String> users) {
    this.region = region;
    this.host = host;
    this.users = new ArrayList<>(users);
  }

  List<String> users() {
    return users;
  }

  String region() {
    return region;
  }

  @Override
  public long getLength() {
    return users.size();
  }

  @Override
  public String[] getLocations() {
    return host.isEmpty() ? new String[0] : new String[] {host};
  }

  @Override
  public void write(DataOutput out) throws IOException {
    Text.writeString(out, region);
    Text.writeString(out, host);
    out.writeInt(users.size());
    for (String u : users) {
      Text.writeString(out, u);
    }
  }

  @Override
  public void readFields(DataInput in) throws IOException {
    region = Text.readString(in);
    host = Text.readString(in);
    int n = in.readInt();
    users = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      users.add(Text.readString(in));
    }
  }

  @Override
  public String toString() {
    return "UserRegionSplit[" + region + " @ " + host + ", " + users.size() + " users]";
  }
}
