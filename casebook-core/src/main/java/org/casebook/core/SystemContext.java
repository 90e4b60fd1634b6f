package org.casebook.core;

import java.nio.file.Path;
import java.util.Objects;
import org.apache.hadoop.hbase.client.Connection;

/** What a system gets from the process: the shared HBase runtime and the data directory. */
public final class SystemContext {
  private final HBaseRuntime runtime;
  private final Path dataDir;

  public SystemContext(HBaseRuntime runtime, Path dataDir) {
    this.runtime = Objects.requireNonNull(runtime, "runtime is null");
    this.dataDir = Objects.requireNonNull(dataDir, "dataDir is null");
  }

  public HBaseRuntime runtime() {
    return runtime;
  }

  public Connection connection() {
    return runtime.connection();
  }

  /** Where a system may keep local files (quarantine, rejects, reports); never HBase data. */
  public Path dataDir() {
    return dataDir;
  }
}
