package org.casebook.core.batch.hfile;

import java.io.IOException;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.io.ImmutableBytesWritable;
import org.apache.hadoop.hbase.mapreduce.MultiTableHFileOutputFormat;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.OutputCommitter;
import org.apache.hadoop.mapreduce.OutputFormat;
import org.apache.hadoop.mapreduce.RecordWriter;
import org.apache.hadoop.mapreduce.TaskAttemptContext;

/**
 * HBase's multi-table HFile output behind a plain {@link OutputFormat}. Hadoop's reduce task
 * measures every record written to a {@code FileOutputFormat} by summing the file system statistics
 * of every thread before and after the write; with the LocalJobRunner inside the HBase JVM (~290
 * threads) that was a quarter of the reduce time. Not being a {@code FileOutputFormat} skips that
 * per-record bookkeeping (the task's file counters remain). When {@link RegionGroups} put several
 * regions in one reducer, HBase's writer is closed and a fresh one opened each time the rows enter
 * another region, so every HFile stays inside one region.
 */
public final class UntrackedHFileOutputFormat extends OutputFormat<ImmutableBytesWritable, Cell> {
  private final MultiTableHFileOutputFormat delegate = new MultiTableHFileOutputFormat();

  @Override
  public RecordWriter<ImmutableBytesWritable, Cell> getRecordWriter(TaskAttemptContext context)
      throws IOException, InterruptedException {
    byte[][] starts = RegionGroups.regionStarts(context.getConfiguration());
    return starts == null
        ? delegate.getRecordWriter(context)
        : new RegionRollingWriter(context, starts);
  }

  @Override
  public void checkOutputSpecs(JobContext context) throws IOException, InterruptedException {
    delegate.checkOutputSpecs(context);
  }

  @Override
  public OutputCommitter getOutputCommitter(TaskAttemptContext context) throws IOException {
    return delegate.getOutputCommitter(context);
  }

  /** One HBase writer per region; rows arrive sorted, so regions only ever move forward. */
  private static final class RegionRollingWriter
      extends RecordWriter<ImmutableBytesWritable, Cell> {
    private final TaskAttemptContext context;
    private final byte[][] starts;
    private RecordWriter<ImmutableBytesWritable, Cell> current;
    private int region = -1;

    RegionRollingWriter(TaskAttemptContext context, byte[][] starts) {
      this.context = context;
      this.starts = starts;
    }

    @Override
    public void write(ImmutableBytesWritable key, Cell cell)
        throws IOException, InterruptedException {
      int r = RegionGroups.regionOf(starts, key.get(), key.getOffset(), key.getLength());
      if (current == null || r != region) {
        if (current != null) {
          current.close(context);
        }
        // Each writer names its files afresh in the task's work directory, which is committed
        // whole.
        current = new MultiTableHFileOutputFormat().getRecordWriter(context);
        region = r;
      }
      current.write(key, cell);
    }

    @Override
    public void close(TaskAttemptContext ignored) throws IOException, InterruptedException {
      if (current != null) {
        current.close(context);
        current = null;
      }
    }
  }
}
