package org.casebook.trails.batch;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.InputFormat;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.casebook.trails.TrailsRowCodec;

/**
 * Seed 000's PrefixInputFormat: reads the user ids, finds the region that holds each user's rows
 * for the first day of the range, and makes one split per region, located on its server, so each
 * map task reads from the region server next to it.
 */
public final class UserRegionInputFormat extends InputFormat<Text, Result[]> {
  static final String USERS_FILE = "casebook.trails.users.file";
  static final String FROM = "casebook.trails.from";
  static final String TO = "casebook.trails.to";
  static final String NAMESPACE = "casebook.trails.namespace";

  @Override
  public List<InputSplit> getSplits(JobContext context) throws IOException {
    Configuration conf = context.getConfiguration();
    List<String> users = readUsers(conf);
    TrailsRowCodec rows = TrailsRowCodec.in(conf.get(NAMESPACE, TrailsRowCodec.DEFAULT_NAMESPACE));
    LocalDate firstDay = LocalDate.parse(conf.get(FROM));
    Map<String, List<String>> byRegion = new LinkedHashMap<>();
    Map<String, String> hostOf = new LinkedHashMap<>();
    try (Connection c = ConnectionFactory.createConnection(conf);
        RegionLocator locator = c.getRegionLocator(rows.events())) {
      for (String u : users) {
        HRegionLocation loc = locator.getRegionLocation(TrailsRowCodec.firstRow(u, firstDay));
        String region = loc.getRegion().getEncodedName();
        byRegion.computeIfAbsent(region, k -> new ArrayList<>()).add(u);
        hostOf.put(region, loc.getHostname());
      }
    }
    List<InputSplit> splits = new ArrayList<>();
    byRegion.forEach(
        (region, us) -> splits.add(new UserRegionSplit(region, hostOf.get(region), us)));
    return splits;
  }

  static List<String> readUsers(Configuration conf) throws IOException {
    Path path = new Path(conf.get(USERS_FILE));
    FileSystem fs = path.getFileSystem(conf);
    List<String> users = new ArrayList<>();
    try (BufferedReader r =
        new BufferedReader(new InputStreamReader(fs.open(path), StandardCharsets.UTF_8))) {
      String line;
      while ((line = r.readLine()) != null) {
        if (!line.isBlank()) {
          users.add(line.strip());
        }
      }
    }
    return users;
  }

  @Override
  public RecordReader<Text, Result[]> createRecordReader(
      InputSplit split, TaskAttemptContext context) {
    return new UserTrailRecordReader();
  }
}
