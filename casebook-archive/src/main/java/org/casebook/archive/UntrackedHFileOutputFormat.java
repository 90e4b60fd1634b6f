package org.casebook.archive;

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
 * HBase's multi-table HFile output, unchanged, behind a plain {@link OutputFormat}. Hadoop's
 * reduce task measures every record written to a {@code FileOutputFormat} by summing the file
 * system statistics of every thread before and after the write; with the LocalJobRunner inside
 * the HBase JVM (~290 threads) that was a quarter of the reduce time. Not being a
 * {@code FileOutputFormat} skips that per-record bookkeeping (the task's file counters remain).
 */
public final class UntrackedHFileOutputFormat extends OutputFormat<ImmutableBytesWritable, Cell> {
  private final MultiTableHFileOutputFormat delegate = new MultiTableHFileOutputFormat();

  @Override
  public RecordWriter<ImmutableBytesWritable, Cell> getRecordWriter(TaskAttemptContext context)
      throws IOException, InterruptedException {
    return delegate.getRecordWriter(context);
  }

  @Override
  public void checkOutputSpecs(JobContext context) throws IOException, InterruptedException {
    delegate.checkOutputSpecs(context);
  }

  @Override
  public OutputCommitter getOutputCommitter(TaskAttemptContext context) throws IOException {
    return delegate.getOutputCommitter(context);
  }
}
