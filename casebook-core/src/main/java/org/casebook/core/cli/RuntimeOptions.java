package org.casebook.core.cli;

import java.nio.file.Path;
import org.casebook.core.RuntimeSettings;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

/** The options every command that touches HBase shares; inherited by all subcommands. */
public final class RuntimeOptions {
  @Option(
      names = "--data",
      paramLabel = "DIR",
      scope = ScopeType.INHERIT,
      description = "Data directory of embedded HBase (default: ${DEFAULT-VALUE}).",
      defaultValue = "data")
  Path dataDir;

  @Option(
      names = "--zk",
      paramLabel = "HOST:PORT[,…]",
      scope = ScopeType.INHERIT,
      description =
          "ZooKeeper quorum of a real HBase cluster (else HBASE_CONF_DIR, else embedded).")
  String zkQuorum;

  @Option(
      names = "--conf",
      paramLabel = "DIR",
      scope = ScopeType.INHERIT,
      description =
          "Directory of a cluster's site files (hbase-, core-, hdfs-, yarn-, mapred-site.xml);"
              + " default: HBASE_CONF_DIR and HADOOP_CONF_DIR.")
  Path confDir;

  @Option(
      names = "--hbase",
      paramLabel = "KEY=VALUE",
      scope = ScopeType.INHERIT,
      description = "HBase/Hadoop configuration override, repeatable (e.g. hbase.wal.hsync=true).")
  java.util.Map<String, String> overrides = new java.util.LinkedHashMap<>();

  public Path dataDir() {
    return dataDir;
  }

  public RuntimeSettings settings() {
    return RuntimeSettings.fromEnvironment(dataDir, zkQuorum, confDir).withOverrides(overrides);
  }
}
