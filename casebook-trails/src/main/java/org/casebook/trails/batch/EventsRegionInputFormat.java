package org.casebook.trails.batch;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
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
 * Every user of the events table, one split per region (located on its server): the map task of a
 * region hands its users to the mapper one at a time, each with its rows in the date range ({@link
 * RegionUsersRecordReader}).
 */
public final class EventsRegionInputFormat extends InputFormat<Text, Result[]> {
  @Override
  public List<InputSplit> getSplits(JobContext context) throws IOException {
    Configuration conf = context.getConfiguration();
    TrailsRowCodec rows =
        TrailsRowCodec.in(
            conf.get(UserRegionInputFormat.NAMESPACE, TrailsRowCodec.DEFAULT_NAMESPACE));
    List<InputSplit> splits = new ArrayList<>();
    try (Connection c = ConnectionFactory.createConnection(conf);
        RegionLocator locator = c.getRegionLocator(rows.events())) {
      for (HRegionLocation loc : locator.getAllRegionLocations()) {
        // A region being assigned has no server yet: its task then runs anywhere.
        String host = loc.getServerName() == null ? "" : loc.getHostname();
        splits.add(
            new EventsRegionSplit(
                loc.getRegion().getEncodedName(),
                host,
                loc.getRegion().getStartKey(),
                loc.getRegion().getEndKey()));
      }
    }
    return splits;
  }

  @Override
  public RecordReader<Text, Result[]> createRecordReader(
      InputSplit split, TaskAttemptContext context) {
    return new RegionUsersRecordReader();
  }
}
