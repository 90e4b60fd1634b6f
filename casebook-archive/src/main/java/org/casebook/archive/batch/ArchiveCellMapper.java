package org.casebook.archive.batch;

import java.io.IOException;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.io.ImmutableBytesWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Mapper;
import org.casebook.archive.ArchiveCellCodec;
import org.casebook.archive.BadRecords;
import org.casebook.archive.Layout;
import org.casebook.archive.StatusRecord;
import org.casebook.archive.UserRecord;
import org.casebook.archive.batch.ArchiveBulkLoad.Counters;
import org.casebook.archive.wire.ArchiveReader;
import org.casebook.core.batch.hfile.HFileBulkLoad;
import org.casebook.core.batch.hfile.KeyValueShuffle;

/**
 * The bulk load's mapper: streams one file ({@link ArchiveReader#readAllOrNothing}, so a bad file
 * emits nothing and is quarantined; or {@link ArchiveReader#readSalvaging}, so a bad record emits
 * nothing and is set aside) and emits each row's cells for all three tables, keyed by table and
 * row.
 */
public final class ArchiveCellMapper
    extends Mapper<Text, NullWritable, ImmutableBytesWritable, KeyValueShuffle.RowCells> {
  // The tables' indexes in the job, in the order of ArchiveBulkLoad.TABLES.
  private static final int USER = 0;
  private static final int STATUS = 1;
  private static final int INDEX = 2;

  private byte[][] tableNames;
  private Layout layout;
  private HFileBulkLoad.Emitter emitter;

  @Override
  protected void setup(Context context) {
    Configuration conf = context.getConfiguration();
    String[] names = conf.getStrings(ArchiveBulkLoad.TABLES);
    tableNames = new byte[names.length][];
    for (int i = 0; i < names.length; i++) {
      tableNames[i] = TableName.valueOf(names[i]).getName();
    }
    layout =
        new Layout(
            conf.getInt(ArchiveBulkLoad.REGIONS, 1),
            conf.getBoolean(ArchiveBulkLoad.KEY_RULE, true));
    emitter = HFileBulkLoad.emitter(conf);
  }

  @Override
  protected void map(Text file, NullWritable none, Context context)
      throws IOException, InterruptedException {
    Configuration conf = context.getConfiguration();
    Path path = new Path(file.toString());
    int attempts = conf.getInt(ArchiveBulkLoad.ATTEMPTS, 2);
    ArchiveFileRead read =
        ArchiveFileRead.of(
            path.getFileSystem(conf),
            path,
            attempts,
            conf.getLong(ArchiveBulkLoad.HOLD_BYTES, 64L << 20),
            conf.getEnum(ArchiveBulkLoad.BAD_RECORDS, BadRecords.QUARANTINE_FILE),
            new Path(conf.get(ArchiveBulkLoad.QUARANTINE)),
            new ArchiveReader.Sink() {
              @Override
              public void user(UserRecord user) throws IOException {
                context.getCounter(Counters.USERS).increment(1);
                emit(USER, ArchiveCellCodec.userPut(layout, user));
              }

              @Override
              public void status(StatusRecord status) throws IOException {
                context.getCounter(Counters.STATUSES).increment(1);
                List<Put> puts = ArchiveCellCodec.statusPuts(layout, status);
                emit(STATUS, puts.get(0));
                emit(USER, puts.get(1));
                emit(INDEX, puts.get(2));
              }

              private void emit(int table, Put put) throws IOException {
                context
                    .getCounter(Counters.CELLS)
                    .increment(emitter.emit(context, tableNames[table], put));
              }
            });
    if (read.failure().isPresent()) {
      ArchiveBulkLoad.quarantine(conf, path, read.failure().get(), attempts);
      context.getCounter(Counters.FILES_QUARANTINED).increment(1);
      context.getCounter(Counters.BAD_FILE_READS).increment(read.reads());
      context.getCounter(Counters.BAD_FILE_MILLIS).increment(read.nanos() / 1_000_000);
      return;
    }
    context.getCounter(Counters.FILES_LOADED).increment(1);
    if (read.setAside() > 0) {
      context.getCounter(Counters.FILES_SALVAGED).increment(1);
      context.getCounter(Counters.RECORDS_SET_ASIDE).increment(read.setAside());
    }
    context.getCounter(Counters.BYTES).increment(read.size());
  }
}
