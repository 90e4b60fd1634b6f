package org.casebook.archive;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.io.ImmutableBytesWritable;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.SequenceFile;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.lib.partition.TotalOrderPartitioner;

/**
 * Fewer reducers than regions, each HFile still inside one region. HBase gives every region of
 * every table its own reducer; on the LocalJobRunner a reducer is a task with a fixed cost (a job
 * configuration copy, a shuffle, writers), and 24 of them on two cores cost more than their data
 * (bulk load of 85,720 records: 2.2–4.5 s with 24 reducers, 1.6–1.8 s with 3). Here contiguous
 * regions share a reducer, and the output format ({@link UntrackedHFileOutputFormat}) starts new
 * HFiles whenever the rows cross into the next region, so the loader still splits nothing. Local
 * mode only: on a cluster one reducer per region is the parallelism.
 */
final class RegionGroups {
  /**
   * Every region's first composite key (table; start row), sorted, base64: set when grouping is on.
   */
  static final String REGION_STARTS = "casebook.archive.region.starts";

  private RegionGroups() {}

  /**
   * Partitions {@code job} into at most {@code reducers} groups of contiguous regions (total order,
   * as HBase does, on a subset of the region boundaries) and tells the output format where every
   * region starts. {@code starts}: every region's first composite key, sorted. Call after HBase's
   * set-up, which this overrides.
   */
  static void install(Job job, List<byte[]> starts, int reducers, Path work) throws IOException {
    List<byte[]> cuts = cuts(starts, reducers);
    Configuration conf = job.getConfiguration();
    Path partitions = new Path(work, "region-groups.partitions");
    FileSystem fs = partitions.getFileSystem(conf);
    fs.delete(partitions, false);
    try (SequenceFile.Writer writer =
        SequenceFile.createWriter(
            conf,
            SequenceFile.Writer.file(partitions),
            SequenceFile.Writer.keyClass(ImmutableBytesWritable.class),
            SequenceFile.Writer.valueClass(NullWritable.class))) {
      for (byte[] cut : cuts) {
        writer.append(new ImmutableBytesWritable(cut), NullWritable.get());
      }
    }
    TotalOrderPartitioner.setPartitionFile(conf, partitions);
    job.setNumReduceTasks(cuts.size() + 1);
    conf.setStrings(
        REGION_STARTS,
        starts.stream().map(k -> Base64.getEncoder().encodeToString(k)).toArray(String[]::new));
  }

  /**
   * The keys where reducer groups begin (the first group's start excluded): every ⌈regions /
   * reducers⌉-th region start of the sorted {@code starts}.
   */
  static List<byte[]> cuts(List<byte[]> starts, int reducers) {
    int perGroup = (starts.size() + reducers - 1) / Math.max(1, reducers);
    List<byte[]> cuts = new ArrayList<>();
    for (int i = perGroup; i < starts.size(); i += perGroup) {
      cuts.add(starts.get(i));
    }
    return cuts;
  }

  /** The region starts {@link #install} recorded, or null when grouping is off. */
  static byte[][] regionStarts(Configuration conf) {
    String[] encoded = conf.getStrings(REGION_STARTS);
    if (encoded == null) {
      return null;
    }
    byte[][] starts = new byte[encoded.length][];
    for (int i = 0; i < encoded.length; i++) {
      starts[i] = Base64.getDecoder().decode(encoded[i]);
    }
    return starts;
  }

  /** Index of the region holding composite key {@code key}: the last start ≤ key. */
  static int regionOf(byte[][] starts, byte[] key, int offset, int length) {
    int lo = 0;
    int hi = starts.length - 1;
    int found = -1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      if (Bytes.compareTo(starts[mid], 0, starts[mid].length, key, offset, length) <= 0) {
        found = mid;
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    return found;
  }
}
