package org.casebook.archive.batch;

import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;

/**
 * One split per file; the record is the file's path, not its bytes (the mapper streams it), so a
 * file larger than a task's memory is no problem. Seed 001's SK-bad lives in the reader: once a
 * file has failed {@link ArchiveBulkLoad#ATTEMPTS} task attempts (say, the JVM died), the next
 * attempt quarantines it and succeeds without records.
 */
public final class WholeFileInputFormat extends FileInputFormat<Text, NullWritable> {
  @Override
  protected boolean isSplitable(JobContext context, Path filename) {
    return false;
  }

  @Override
  public RecordReader<Text, NullWritable> createRecordReader(
      InputSplit split, TaskAttemptContext context) {
    return new RecordReader<>() {
      private Path path;
      private boolean done;

      @Override
      public void initialize(InputSplit s, TaskAttemptContext ctx) throws java.io.IOException {
        path = ((FileSplit) s).getPath();
        int attempt = ctx.getTaskAttemptID().getId();
        int allowed = ctx.getConfiguration().getInt(ArchiveBulkLoad.ATTEMPTS, 2);
        if (attempt >= allowed) {
          ArchiveBulkLoad.quarantine(
              ctx.getConfiguration(),
              path,
              "task failed " + attempt + " time(s) on this file " + "(see the job's task logs)",
              attempt);
          ctx.getCounter(ArchiveBulkLoad.Counters.FILES_QUARANTINED).increment(1);
          done = true;
        }
      }

      @Override
      public boolean nextKeyValue() {
        if (done) {
          return false;
        }
        done = true;
        return true;
      }

      @Override
      public Text getCurrentKey() {
        return new Text(path.toString());
      }

      @Override
      public NullWritable getCurrentValue() {
        return NullWritable.get();
      }

      @Override
      public float getProgress() {
        return done ? 1f : 0f;
      }

      @Override
      public void close() {}
    };
  }
}
