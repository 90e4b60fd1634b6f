package org.casebook.core;

import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * How to reach HBase (and, for batch jobs, Hadoop). With neither a ZooKeeper quorum nor an HBase
 * configuration directory, Casebook runs HBase embedded with its data under {@code dataDir}.
 *
 * @param dataDir where embedded HBase keeps its data (and where a running server can be found)
 * @param zkQuorum {@code host:port[,host:port…]} of a real cluster's ZooKeeper, if given
 * @param confDir a directory holding {@code hbase-site.xml} (as {@code HBASE_CONF_DIR}), if given
 * @param hadoopConfDir a directory of Hadoop's site files (as {@code HADOOP_CONF_DIR}): its {@code
 *     core-}, {@code hdfs-}, {@code yarn-} and {@code mapred-site.xml} decide where batch jobs run
 * @param overrides extra configuration keys, applied last
 */
public record RuntimeSettings(
    Path dataDir,
    Optional<String> zkQuorum,
    Optional<Path> confDir,
    Optional<Path> hadoopConfDir,
    Map<String, String> overrides) {
  public RuntimeSettings {
    Objects.requireNonNull(dataDir, "dataDir is null");
    Objects.requireNonNull(zkQuorum, "zkQuorum is null");
    Objects.requireNonNull(confDir, "confDir is null");
    Objects.requireNonNull(hadoopConfDir, "hadoopConfDir is null");
    overrides = Map.copyOf(Objects.requireNonNull(overrides, "overrides is null"));
    zkQuorum.ifPresent(
        q -> InvalidInputException.check(!q.isBlank(), "zk", "ZooKeeper quorum is empty"));
  }

  public RuntimeSettings(
      Path dataDir,
      Optional<String> zkQuorum,
      Optional<Path> confDir,
      Map<String, String> overrides) {
    this(dataDir, zkQuorum, confDir, Optional.empty(), overrides);
  }

  public static RuntimeSettings embedded(Path dataDir) {
    return new RuntimeSettings(dataDir, Optional.empty(), Optional.empty(), Map.of());
  }

  public static RuntimeSettings cluster(String zkQuorum) {
    return new RuntimeSettings(Path.of("data"), Optional.of(zkQuorum), Optional.empty(), Map.of());
  }

  /**
   * Settings as Hadoop's own clients take them: {@code confDir} (a {@code --conf} option) for both,
   * else {@code HBASE_CONF_DIR} and {@code HADOOP_CONF_DIR}; embedded under {@code dataDir} when no
   * HBase configuration is found.
   */
  public static RuntimeSettings fromEnvironment(Path dataDir, String zkQuorum, Path confDir) {
    Optional<Path> hbase = confDir != null ? Optional.of(confDir) : env("HBASE_CONF_DIR");
    Optional<Path> hadoop = confDir != null ? Optional.of(confDir) : env("HADOOP_CONF_DIR");
    return new RuntimeSettings(dataDir, Optional.ofNullable(zkQuorum), hbase, hadoop, Map.of());
  }

  private static Optional<Path> env(String name) {
    String v = System.getenv(name);
    return v == null || v.isBlank() ? Optional.empty() : Optional.of(Path.of(v));
  }

  /**
   * These settings for a process that runs long under load — a server, a benchmark — rather than a
   * short command or a test: embedded HBase's region server reports to its master every 3 s
   * (HBase's default) instead of every 0.5 s. Each report copies every running call's request as
   * text (HBase's task monitor), which took about a tenth of a write-heavy load's throughput at 0.5
   * s (bench frontier: PutURLs 4,318 against 4,772 URLs/s at 3 s); the short interval is kept where
   * start-up counts, being 2.5 s quicker to ready (3.6 against 6.1 s). The user's own overrides
   * win.
   */
  public RuntimeSettings forLongRunning() {
    return new RuntimeSettings(
            dataDir,
            zkQuorum,
            confDir,
            hadoopConfDir,
            Map.of(HBaseRuntime.REPORT_INTERVAL_KEY, "3000"))
        .withOverrides(overrides);
  }

  public RuntimeSettings withOverrides(Map<String, String> more) {
    java.util.HashMap<String, String> merged = new java.util.HashMap<>(overrides);
    merged.putAll(more);
    return new RuntimeSettings(dataDir, zkQuorum, confDir, hadoopConfDir, merged);
  }
}
