package org.casebook.core;

import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * How to reach HBase. With neither a ZooKeeper quorum nor an HBase configuration directory,
 * Casebook runs HBase embedded with its data under {@code dataDir}.
 *
 * @param dataDir where embedded HBase keeps its data (and where a running server can be found)
 * @param zkQuorum {@code host:port[,host:port…]} of a real cluster's ZooKeeper, if given
 * @param confDir a directory holding {@code hbase-site.xml} (as {@code HBASE_CONF_DIR}), if given
 * @param overrides extra configuration keys, applied last
 */
public record RuntimeSettings(
    Path dataDir,
    Optional<String> zkQuorum,
    Optional<Path> confDir,
    Map<String, String> overrides) {
  public RuntimeSettings {
    Objects.requireNonNull(dataDir, "dataDir is null");
    Objects.requireNonNull(zkQuorum, "zkQuorum is null");
    Objects.requireNonNull(confDir, "confDir is null");
    overrides = Map.copyOf(Objects.requireNonNull(overrides, "overrides is null"));
    zkQuorum.ifPresent(
        q -> InvalidInputException.check(!q.isBlank(), "zk", "ZooKeeper quorum is empty"));
  }

  public static RuntimeSettings embedded(Path dataDir) {
    return new RuntimeSettings(dataDir, Optional.empty(), Optional.empty(), Map.of());
  }

  public static RuntimeSettings cluster(String zkQuorum) {
    return new RuntimeSettings(Path.of("data"), Optional.of(zkQuorum), Optional.empty(), Map.of());
  }

  /**
   * Settings from the environment: {@code HBASE_CONF_DIR} if set, else embedded under {@code
   * dataDir}.
   */
  public static RuntimeSettings fromEnvironment(Path dataDir, String zkQuorum) {
    String conf = System.getenv("HBASE_CONF_DIR");
    return new RuntimeSettings(
        dataDir,
        Optional.ofNullable(zkQuorum),
        conf == null || conf.isBlank() ? Optional.empty() : Optional.of(Path.of(conf)),
        Map.of());
  }

  public RuntimeSettings withOverrides(Map<String, String> more) {
    java.util.HashMap<String, String> merged = new java.util.HashMap<>(overrides);
    merged.putAll(more);
    return new RuntimeSettings(dataDir, zkQuorum, confDir, merged);
  }
}
