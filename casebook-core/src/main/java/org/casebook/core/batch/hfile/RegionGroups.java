package org.casebook.core.batch.hfile;

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
  static final String REGION_STARTS = "casebook.bulkload.region.starts";

  private RegionGroups() {}

  /**
   * Partitions {@code job} into at most {@code reducers} groups of contiguous regions (total order,
   * as HBase does, on a subset of the region boundaries) and tells the output format where every
   * region starts. {@code starts}: every region's first composite key, sorted. Call after HBase's
   * set-up, which this overrides.
   */
  static void install(Job job, List<byte[]> starts, int reducers, Path work, TableIndex index)
      throws IOException {
    install(job, starts, cuts(starts, reducers), work, "region-groups", index);
  }

  /**
   * As {@link #install}, with the groups cut by data: {@code sample} (composite keys with their
   * cells, in any order) is cut into {@code reducers} runs of about equal cells, wherever those
   * fall — inside a region too (its rows then go to two reducers, each writing its own HFiles of
   * that region, which HBase loads side by side). A table of one region no longer lands on one
   * reducer whole.
   */
  static void installBalanced(
      Job job,
      List<byte[]> starts,
      List<HFileBulkLoad.SampledRow> sample,
      int reducers,
      Path work,
      TableIndex index)
      throws IOException {
    install(job, starts, balancedCuts(sample, reducers), work, "balanced-groups", index);
  }

  /**
   * One reducer per region, as HBase's own set-up partitions (the partition file in the job's map
   * output keys); the output format is not told the regions: each reducer has one.
   */
  static void installPerRegion(Job job, List<byte[]> starts, Path work, TableIndex index)
      throws IOException {
    writePartitions(job, starts.subList(1, starts.size()), work, "regions", index);
  }

  /**
   * Writes the partition file: {@code cuts} (composite keys, sorted) as map output keys of {@code
   * index}, one reducer more than cuts; the output format hears every region's start.
   */
  private static void install(
      Job job, List<byte[]> starts, List<byte[]> cuts, Path work, String name, TableIndex index)
      throws IOException {
    writePartitions(job, cuts, work, name, index);
    job.getConfiguration()
        .setStrings(
            REGION_STARTS,
            starts.stream().map(k -> Base64.getEncoder().encodeToString(k)).toArray(String[]::new));
  }

  /** The total-order partition file of {@code cuts} (composite keys, sorted) as map output keys. */
  private static void writePartitions(
      Job job, List<byte[]> cuts, Path work, String name, TableIndex index) throws IOException {
    Configuration conf = job.getConfiguration();
    Path partitions = new Path(work, name + ".partitions");
    FileSystem fs = partitions.getFileSystem(conf);
    fs.delete(partitions, false);
    try (SequenceFile.Writer writer =
        SequenceFile.createWriter(
            conf,
            SequenceFile.Writer.file(partitions),
            SequenceFile.Writer.keyClass(ImmutableBytesWritable.class),
            SequenceFile.Writer.valueClass(NullWritable.class))) {
      for (byte[] cut : cuts) {
        writer.append(new ImmutableBytesWritable(index.key(cut)), NullWritable.get());
      }
    }
    job.setPartitionerClass(TotalOrderPartitioner.class);
    TotalOrderPartitioner.setPartitionFile(conf, partitions);
    job.setNumReduceTasks(cuts.size() + 1);
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

  /**
   * Where {@code reducers} groups of about equal cells begin (the first excluded): the sampled keys
   * sorted, cut where the running sum of cells passes each multiple of total / reducers. Distinct
   * and increasing, possibly fewer than {@code reducers - 1} (few distinct keys).
   */
  static List<byte[]> balancedCuts(List<HFileBulkLoad.SampledRow> sample, int reducers) {
    List<HFileBulkLoad.SampledRow> sorted = new ArrayList<>(sample);
    sorted.sort((a, b) -> Bytes.BYTES_COMPARATOR.compare(a.key(), b.key()));
    long total = 0;
    for (HFileBulkLoad.SampledRow r : sorted) {
      total += r.cells();
    }
    List<byte[]> cuts = new ArrayList<>();
    long running = 0;
    int next = 1;
    for (HFileBulkLoad.SampledRow r : sorted) {
      if (next < reducers && running >= total * next / reducers) {
        if (cuts.isEmpty() || Bytes.compareTo(cuts.get(cuts.size() - 1), r.key()) < 0) {
          cuts.add(r.key());
        }
        next++;
      }
      running += r.cells();
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
