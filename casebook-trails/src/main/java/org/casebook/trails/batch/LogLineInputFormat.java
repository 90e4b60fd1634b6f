package org.casebook.trails.batch;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.mapreduce.InputFormat;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;
import org.apache.hadoop.mapreduce.lib.input.TextInputFormat;
import org.apache.hadoop.util.LineReader;
import org.casebook.trails.wire.LogLines;

/**
 * The log's lines as the Put path reads them, for the bulk load's map tasks: a line ends at {@code
 * \n} only; every line is a record keyed by its byte offset, a line longer than {@link
 * LogLines#MAX_LINE_BYTES} cut short (so the mapper rejects it as too long and the heap never holds
 * it), and a UTF-8 byte order mark before the first line dropped. Splits are Hadoop's ({@link
 * TextInputFormat}'s; a split reads every line that starts in it), wrapped so that the task does
 * not see a {@link FileSplit}: for one the task sums the file system's byte counters of every
 * thread before and after every record, which inside the server's JVM (hundreds of threads) took a
 * tenth of the map time.
 *
 * <p>Hadoop's own {@code LineRecordReader} is not used: it either holds a line whole or, with a
 * length limit, skips it and keys the next line with the skipped line's offset.
 */
final class LogLineInputFormat extends InputFormat<LongWritable, Text> {
  private final TextInputFormat splits = new TextInputFormat();

  @Override
  public List<InputSplit> getSplits(JobContext context) throws IOException {
    List<InputSplit> out = new ArrayList<>();
    for (InputSplit s : splits.getSplits(context)) {
      out.add(new Split((FileSplit) s));
    }
    return out;
  }

  @Override
  public RecordReader<LongWritable, Text> createRecordReader(
      InputSplit split, TaskAttemptContext context) {
    return new Lines();
  }

  /** The lines starting in one split (the first skipped unless the split starts the file). */
  static final class Lines extends RecordReader<LongWritable, Text> {
    private static final byte[] NEWLINE = {'\n'};

    private FSDataInputStream stream;
    private LineReader in;
    private long start;
    private long end;
    private long pos;
    private final LongWritable key = new LongWritable();
    private final Text value = new Text();

    @Override
    public void initialize(InputSplit s, TaskAttemptContext context) throws IOException {
      FileSplit file = ((Split) s).file;
      start = file.getStart();
      end = start + file.getLength();
      stream = file.getPath().getFileSystem(context.getConfiguration()).open(file.getPath());
      stream.seek(start);
      in = new LineReader(stream, context.getConfiguration(), NEWLINE);
      if (start != 0) {
        // The line under way at the split's start belongs to the split before (it reads every
        // line starting at or before its end).
        start += in.readLine(new Text(), 0, Integer.MAX_VALUE);
      }
      pos = start;
    }

    @Override
    public boolean nextKeyValue() throws IOException {
      if (pos > end) {
        return false;
      }
      key.set(pos);
      int consumed = in.readLine(value, LogLines.KEPT_BYTES, Integer.MAX_VALUE);
      if (consumed == 0) {
        return false;
      }
      if (pos == 0 && LogLines.startsWithByteOrderMark(value.getBytes(), value.getLength())) {
        value.set(value.getBytes(), 3, value.getLength() - 3);
      }
      pos += consumed;
      return true;
    }

    @Override
    public LongWritable getCurrentKey() {
      return key;
    }

    @Override
    public Text getCurrentValue() {
      return value;
    }

    @Override
    public float getProgress() {
      return end == start ? 1f : Math.min(1f, (pos - start) / (float) (end - start));
    }

    @Override
    public void close() throws IOException {
      if (in != null) {
        in.close();
      } else if (stream != null) {
        stream.close();
      }
    }
  }

  /** A file split in a wrapper that is not a {@link FileSplit}. */
  public static final class Split extends InputSplit implements Writable {
    private FileSplit file;

    /** For Hadoop's deserializer. */
    public Split() {
      this.file = new FileSplit();
    }

    Split(FileSplit file) {
      this.file = file;
    }

    @Override
    public long getLength() throws IOException {
      return file.getLength();
    }

    @Override
    public String[] getLocations() throws IOException {
      return file.getLocations();
    }

    @Override
    public void write(DataOutput out) throws IOException {
      file.write(out);
    }

    @Override
    public void readFields(DataInput in) throws IOException {
      file = new FileSplit();
      file.readFields(in);
    }
  }
}
