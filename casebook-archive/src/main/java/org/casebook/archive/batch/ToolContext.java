package org.casebook.archive.batch;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.client.Connection;
import org.casebook.core.AccessRule;
import org.casebook.core.SystemContext;
import org.casebook.core.WriteGate;
import org.casebook.core.net.Listener;
import org.casebook.core.net.ListenerSpec;
import org.casebook.core.settings.SystemSettings;

/**
 * The context of {@link ArchiveImportTool}: the tool's connection and Hadoop configuration (with
 * its {@code -D} options), a scratch directory, the system clock. A tool run by {@code hadoop jar}
 * serves nothing and runs nothing in the background, so those parts are refused.
 */
final class ToolContext implements SystemContext {
  private final Connection connection;
  private final Configuration configuration;
  private final Path dataDir;
  private final MeterRegistry metrics = new SimpleMeterRegistry();
  private final WriteGate gate = new WriteGate("archive-tool");

  ToolContext(Connection connection, Configuration configuration, Path dataDir) {
    this.connection = connection;
    this.configuration = configuration;
    this.dataDir = dataDir;
  }

  @Override
  public String system() {
    return "archive-tool";
  }

  @Override
  public Connection connection() {
    return connection;
  }

  @Override
  public Configuration configuration() {
    return configuration;
  }

  @Override
  public Path dataDir() {
    return dataDir;
  }

  @Override
  public Clock clock() {
    return Clock.systemUTC();
  }

  @Override
  public MeterRegistry metrics() {
    return metrics;
  }

  /** A tool serves nothing: no listener asks who calls. */
  @Override
  public org.casebook.core.access.AccessGate access() {
    return new org.casebook.core.access.AccessGate(
        AccessRule.open(),
        system(),
        org.casebook.core.access.AuditLog.none(),
        metrics,
        Clock.systemUTC());
  }

  /** The tool writes apart from any serve: no backup pauses it (the import is rerunnable). */
  @Override
  public WriteGate writes() {
    return gate;
  }

  @Override
  public SystemSettings settings() {
    return SystemSettings.defaults(system(), List.of());
  }

  @Override
  public ExecutorService sideWork() {
    throw new UnsupportedOperationException("the import tool runs no side work");
  }

  @Override
  public ScheduledExecutorService background(String name) {
    throw new UnsupportedOperationException("the import tool runs nothing in the background");
  }

  @Override
  public <T extends AutoCloseable> T own(T resource) {
    throw new UnsupportedOperationException("the import tool owns no resources of the archive's");
  }

  @Override
  public Listener listen(ListenerSpec spec, Listener.Factory factory) {
    throw new UnsupportedOperationException("the import tool listens on no port");
  }
}
