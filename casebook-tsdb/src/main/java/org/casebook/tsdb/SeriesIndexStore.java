package org.casebook.tsdb;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.casebook.core.StorageException;

/**
 * Every read and write of the series index table: one row per series ever written (its tsuid), and
 * per metric a row saying its series are all there. Thread-safe.
 */
final class SeriesIndexStore {
  private static final byte[] EMPTY = new byte[0];

  private final Connection connection;
  private final TsdbSchema schema;

  SeriesIndexStore(Connection connection, TsdbSchema schema) {
    this.connection = connection;
    this.schema = schema;
  }

  /**
   * Writes the index rows of the series {@code metrics[i]}, {@code tagRuns[i]}; durable when this
   * returns. Blind puts: writing a series twice leaves one row.
   */
  void putSeries(List<byte[]> metrics, List<byte[]> tagRuns) {
    List<Put> puts = new ArrayList<>(metrics.size());
    for (int i = 0; i < metrics.size(); i++) {
      byte[] row = TsdbKeys.indexSeriesRow(metrics.get(i), tagRuns.get(i));
      puts.add(new Put(row).addColumn(TsdbSchema.S, TsdbSchema.SEEN, EMPTY));
    }
    try (Table t = connection.getTable(schema.series())) {
      t.put(puts);
    } catch (IOException e) {
      throw StorageException.of("index series", e);
    }
  }

  /**
   * The tag runs of {@code metric}'s indexed series in tsuid order, one bounded scan, until {@code
   * more} returns false.
   */
  void seriesOf(byte[] metric, Predicate<byte[]> more) {
    try (Table t = connection.getTable(schema.series());
        ResultScanner s =
            t.getScanner(
                TsdbKeys.indexSeriesOf(metric)
                    .toScan()
                    .addColumn(TsdbSchema.S, TsdbSchema.SEEN)
                    .setCaching(1000))) {
      for (Result r : s) {
        if (!more.test(TsdbKeys.indexSeriesTags(r.getRow()))) {
          break;
        }
      }
    } catch (IOException e) {
      throw StorageException.of("read the series index", e);
    }
  }

  /** Whether every series of {@code metric} written before the index existed was indexed. */
  boolean indexed(byte[] metric) {
    try (Table t = connection.getTable(schema.series())) {
      return t.exists(
          new Get(TsdbKeys.indexStateRow(metric)).addColumn(TsdbSchema.S, TsdbSchema.INDEXED));
    } catch (IOException e) {
      throw StorageException.of("read the series index state", e);
    }
  }

  /** Records that every series of {@code metric} is indexed, at {@code nowMs}. */
  void markIndexed(byte[] metric, long nowMs) {
    try (Table t = connection.getTable(schema.series())) {
      t.put(
          new Put(TsdbKeys.indexStateRow(metric))
              .addColumn(TsdbSchema.S, TsdbSchema.INDEXED, Bytes.toBytes(nowMs)));
    } catch (IOException e) {
      throw StorageException.of("write the series index state", e);
    }
  }

  /**
   * The last metric id handed out before the index existed: {@code lastMetricNow} if this is the
   * index's first use (recorded then), else what its first use recorded.
   */
  long bornAfterMetric(long lastMetricNow) {
    byte[] row = TsdbKeys.indexBirthRow();
    try (Table t = connection.getTable(schema.series())) {
      t.checkAndMutate(
          CheckAndMutate.newBuilder(row)
              .ifNotExists(TsdbSchema.S, TsdbSchema.BORN)
              .build(
                  new Put(row)
                      .addColumn(TsdbSchema.S, TsdbSchema.BORN, Bytes.toBytes(lastMetricNow))));
      return Bytes.toLong(t.get(new Get(row).addColumn(TsdbSchema.S, TsdbSchema.BORN)).value());
    } catch (IOException e) {
      throw StorageException.of("read the series index state", e);
    }
  }
}
