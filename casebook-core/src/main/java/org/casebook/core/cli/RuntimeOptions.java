package org.casebook.core.cli;

import java.nio.file.Path;
import org.casebook.core.RuntimeSettings;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

/** The options every command that touches HBase shares; inherited by all subcommands. */
public final class RuntimeOptions {
  @Option(names = "--data", paramLabel = "DIR", scope = ScopeType.INHERIT,
      description = "Data directory of embedded HBase (default: ${DEFAULT-VALUE}).", defaultValue = "data")
  Path dataDir;

  @Option(names = "--zk", paramLabel = "HOST:PORT[,…]", scope = ScopeType.INHERIT,
      description = "ZooKeeper quorum of a real HBase cluster (else HBASE_CONF_DIR, else embedded).")
  String zkQuorum;

  public Path dataDir() {
    return dataDir;
  }

  public RuntimeSettings settings() {
    return RuntimeSettings.fromEnvironment(dataDir, zkQuorum);
  }
}
