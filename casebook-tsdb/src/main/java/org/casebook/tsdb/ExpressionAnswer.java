package org.casebook.tsdb;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The answer to an {@link ExpressionRequest}: one output per requested id, each a table of rows (a
 * timestamp and one value per series) and a description of each series.
 *
 * @param outputs in request order
 */
public record ExpressionAnswer(List<Output> outputs) {
  public ExpressionAnswer {
    outputs = List.copyOf(outputs);
  }

  /**
   * What describes one series of an output, as OpenTSDB's {@code meta} entries do.
   *
   * @param metrics the metric names, sorted (OpenTSDB prints those of the output's first series for
   *     every series)
   * @param commonTags the tags of the series' group
   * @param aggregatedTags the tag keys aggregated away in the groups it was computed from
   */
  public record SeriesMeta(
      List<String> metrics, Map<String, String> commonTags, List<String> aggregatedTags) {
    public SeriesMeta {
      metrics = List.copyOf(metrics);
      commonTags = Collections.unmodifiableMap(new LinkedHashMap<>(commonTags));
      aggregatedTags = List.copyOf(aggregatedTags);
    }
  }

  /** One output: rows of a timestamp (milliseconds) and a value per series. */
  public static final class Output {
    private final String id;
    private final String alias;
    private final long[] timestamps;
    private final double[][] rows;
    private final List<SeriesMeta> series;

    /** Takes over the arrays: {@code rows[r][s]} is series s at {@code timestamps[r]}. */
    Output(String id, String alias, long[] timestamps, double[][] rows, List<SeriesMeta> series) {
      this.id = Objects.requireNonNull(id, "id is null");
      this.alias = alias;
      this.timestamps = timestamps;
      this.rows = rows;
      this.series = List.copyOf(series);
    }

    public String id() {
      return id;
    }

    /** The alias the request gave, or null. */
    public String alias() {
      return alias;
    }

    public int rowCount() {
      return timestamps.length;
    }

    public long timestampMs(int row) {
      return timestamps[row];
    }

    public double value(int row, int seriesIndex) {
      return rows[row][seriesIndex];
    }

    public List<SeriesMeta> series() {
      return series;
    }

    /** The first row's timestamp, 0 without rows. */
    public long firstTimestampMs() {
      return timestamps.length == 0 ? 0 : timestamps[0];
    }

    /** The last row's timestamp, 0 without rows. */
    public long lastTimestampMs() {
      return timestamps.length == 0 ? 0 : timestamps[timestamps.length - 1];
    }
  }
}
