package org.casebook.bench;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.io.compress.Compression;
import org.apache.hadoop.hbase.io.encoding.DataBlockEncoding;

/**
 * How one {@link OpenTsdbPeer} runs: where, on which tables, with what heap, salt, storage and
 * extra configuration.
 *
 * @param workDir config, logs, static root and cache dir of this instance
 * @param tablePrefix put in front of OpenTSDB's table names ({@code tsdb}, {@code tsdb-uid}, …);
 *     {@code "ns:"} puts them in the HBase namespace {@code ns} (created if missing), so a test or
 *     benchmark can run an instance independent of another
 * @param heap the child's {@code -Xmx} value
 * @param saltWidth {@code tsd.storage.salt.width}; 0 is unsalted (OpenTSDB's default)
 * @param saltBuckets {@code tsd.storage.salt.buckets}; the data table is pre-split into as many
 *     regions when salted
 * @param dataBlockEncoding encoding of every family; NONE like Casebook's tables, DIFF is {@code
 *     create_table.sh}'s
 * @param compression codec of every family; NONE like Casebook's tables ({@code create_table.sh}
 *     says LZO)
 * @param dropExistingTables drop OpenTSDB's tables first, for a run from empty tables
 * @param startTimeout how long to wait for {@code /api/version} to answer
 * @param config extra {@code opentsdb.conf} entries, applied last (so they can override ours)
 * @param jvmArgs extra arguments for the child JVM
 */
public record OpenTsdbOptions(
    Path workDir,
    String tablePrefix,
    String heap,
    int saltWidth,
    int saltBuckets,
    DataBlockEncoding dataBlockEncoding,
    Compression.Algorithm compression,
    boolean dropExistingTables,
    Duration startTimeout,
    Map<String, String> config,
    List<String> jvmArgs) {
  public OpenTsdbOptions {
    Objects.requireNonNull(workDir, "workDir is null");
    Objects.requireNonNull(tablePrefix, "tablePrefix is null");
    Objects.requireNonNull(heap, "heap is null");
    Objects.requireNonNull(dataBlockEncoding, "dataBlockEncoding is null");
    Objects.requireNonNull(compression, "compression is null");
    Objects.requireNonNull(startTimeout, "startTimeout is null");
    if (saltWidth < 0 || saltWidth > 8) {
      throw new IllegalArgumentException("salt width must be 0..8: " + saltWidth);
    }
    if (saltWidth > 0 && (saltBuckets < 1 || saltBuckets > 256)) {
      throw new IllegalArgumentException("salt buckets must be 1..256: " + saltBuckets);
    }
    if (tablePrefix.indexOf(':') != tablePrefix.lastIndexOf(':')) {
      throw new IllegalArgumentException("at most one ':' in a table prefix: " + tablePrefix);
    }
    config = Map.copyOf(config);
    jvmArgs = List.copyOf(jvmArgs);
  }

  /** Default tables, 512 MB heap, unsalted, no encoding or compression, 2 minutes to start. */
  public static OpenTsdbOptions defaults(Path workDir) {
    return new OpenTsdbOptions(
        workDir,
        "",
        "512m",
        0,
        20,
        DataBlockEncoding.NONE,
        Compression.Algorithm.NONE,
        false,
        Duration.ofMinutes(2),
        Map.of(),
        List.of());
  }

  public OpenTsdbOptions withTablePrefix(String prefix) {
    return new OpenTsdbOptions(
        workDir,
        prefix,
        heap,
        saltWidth,
        saltBuckets,
        dataBlockEncoding,
        compression,
        dropExistingTables,
        startTimeout,
        config,
        jvmArgs);
  }

  public OpenTsdbOptions withHeap(String value) {
    return new OpenTsdbOptions(
        workDir,
        tablePrefix,
        value,
        saltWidth,
        saltBuckets,
        dataBlockEncoding,
        compression,
        dropExistingTables,
        startTimeout,
        config,
        jvmArgs);
  }

  public OpenTsdbOptions withSalt(int width, int buckets) {
    return new OpenTsdbOptions(
        workDir,
        tablePrefix,
        heap,
        width,
        buckets,
        dataBlockEncoding,
        compression,
        dropExistingTables,
        startTimeout,
        config,
        jvmArgs);
  }

  public OpenTsdbOptions withStorage(DataBlockEncoding encoding, Compression.Algorithm codec) {
    return new OpenTsdbOptions(
        workDir,
        tablePrefix,
        heap,
        saltWidth,
        saltBuckets,
        encoding,
        codec,
        dropExistingTables,
        startTimeout,
        config,
        jvmArgs);
  }

  public OpenTsdbOptions withDropExistingTables(boolean value) {
    return new OpenTsdbOptions(
        workDir,
        tablePrefix,
        heap,
        saltWidth,
        saltBuckets,
        dataBlockEncoding,
        compression,
        value,
        startTimeout,
        config,
        jvmArgs);
  }

  public OpenTsdbOptions withStartTimeout(Duration value) {
    return new OpenTsdbOptions(
        workDir,
        tablePrefix,
        heap,
        saltWidth,
        saltBuckets,
        dataBlockEncoding,
        compression,
        dropExistingTables,
        value,
        config,
        jvmArgs);
  }

  /** Adds one {@code opentsdb.conf} entry (applied after ours). */
  public OpenTsdbOptions withConfig(String key, String value) {
    Map<String, String> m = new LinkedHashMap<>(config);
    m.put(key, value);
    return new OpenTsdbOptions(
        workDir,
        tablePrefix,
        heap,
        saltWidth,
        saltBuckets,
        dataBlockEncoding,
        compression,
        dropExistingTables,
        startTimeout,
        m,
        jvmArgs);
  }

  public OpenTsdbOptions withJvmArgs(List<String> args) {
    return new OpenTsdbOptions(
        workDir,
        tablePrefix,
        heap,
        saltWidth,
        saltBuckets,
        dataBlockEncoding,
        compression,
        dropExistingTables,
        startTimeout,
        config,
        args);
  }

  public TableName dataTable() {
    return TableName.valueOf(tablePrefix + "tsdb");
  }

  public TableName uidTable() {
    return TableName.valueOf(tablePrefix + "tsdb-uid");
  }

  public TableName treeTable() {
    return TableName.valueOf(tablePrefix + "tsdb-tree");
  }

  public TableName metaTable() {
    return TableName.valueOf(tablePrefix + "tsdb-meta");
  }
}
