package org.casebook.core;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.casebook.core.net.Listener;
import org.casebook.core.net.ListenerSpec;
import org.casebook.core.settings.SettingSources;
import org.casebook.core.tls.ServerTls;

/**
 * The process-wide half of every {@link SystemContext}: the HBase runtime, the clock, the shared
 * side-work pool, the metrics registry, the access rule, the bind address, TLS and the listener
 * ports. A server makes one and a context per system from it; a CLI command or a test makes one for
 * the system it runs. {@link #close()} closes the contexts (last made first), then the pool.
 */
public final class Platform implements AutoCloseable {
  private final HBaseRuntime runtime;
  private final Path dataDir;
  private final Clock clock;
  private final PrometheusMeterRegistry metrics;
  private final AccessRule access;
  private final String bindAddress;
  private final Optional<ServerTls> tls;
  private final Map<String, Integer> ports;
  private final Map<String, Integer> listenerCounts = new HashMap<>();
  private final SettingSources settings;
  private final ThreadPoolExecutor sideWork;
  private final List<PlatformContext> contexts = new ArrayList<>();
  private final Map<String, WriteGate> gates = new HashMap<>();
  private final DiskSpaceGuard disk;
  private final Optional<org.casebook.core.access.AuditTable> auditTable;

  private Platform(Builder b) {
    this.runtime = b.runtime;
    this.dataDir = b.dataDir;
    this.clock = b.clock;
    this.metrics = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    this.access = b.access;
    this.bindAddress = b.bindAddress;
    this.tls = Optional.ofNullable(b.tls);
    this.ports = Map.copyOf(b.ports);
    this.settings = b.settings;
    this.disk = DiskSpaceGuard.of(runtime, dataDir);
    if (b.auditName != null) {
      new org.casebook.core.schema.SchemaManager(runtime.connection())
          .ensure(org.casebook.core.access.AuditTable.spec(b.auditName, b.auditRetention));
      this.auditTable =
          Optional.of(
              org.casebook.core.access.AuditTable.open(runtime.connection(), b.auditName, metrics));
    } else {
      this.auditTable = Optional.empty();
    }
    if (disk.active()) {
      io.micrometer.core.instrument.Gauge.builder(
              "casebook.disk.free", disk, DiskSpaceGuard::usableBytes)
          .description("free space on the disk under the embedded HBase's data")
          .baseUnit("bytes")
          .register(metrics);
    }
    // Bounded to the machine: side work is HBase calls that mostly wait, so a few per core.
    int threads = b.sideWorkThreads;
    this.sideWork =
        new ThreadPoolExecutor(
            threads,
            threads,
            60,
            TimeUnit.SECONDS,
            new LinkedBlockingQueue<>(),
            Threads.daemon("casebook-side-work"));
    sideWork.allowCoreThreadTimeOut(true);
  }

  public static Builder builder(HBaseRuntime runtime, Path dataDir) {
    return new Builder(runtime, dataDir);
  }

  /** A platform with defaults: system clock, open access, loopback, default ports. */
  public static Platform create(HBaseRuntime runtime, Path dataDir) {
    return builder(runtime, dataDir).build();
  }

  /** The context of one system, with its declared settings resolved; made once per name. */
  public synchronized SystemContext contextFor(SystemDescriptor system) {
    return contextFor(system, Map.of());
  }

  /**
   * The context of one system, its declared settings resolved with {@code settings} ({@code
   * <system>.<name>} → value) set as by {@code --set}; made once per name. A key the system does
   * not declare is refused, and so are settings other than those the existing context was made
   * with.
   */
  public synchronized SystemContext contextFor(
      SystemDescriptor system, Map<String, String> settings) {
    listenerCounts.put(system.name(), system.listeners().size());
    SettingSources.checkSet(settings, Map.of(system.name(), system.settings()));
    SettingSources sources = this.settings.withSet(settings);
    PlatformContext existing = find(system.name());
    if (existing != null) {
      // Settings apply when a context is made: a later caller asking for others would be ignored.
      if (!settings.isEmpty()
          && !sources
              .resolve(system.name(), system.settings())
              .values()
              .equals(existing.settings().values())) {
        throw new IllegalStateException(
            system.name() + "'s context was made with other settings than " + settings);
      }
      return existing;
    }
    PlatformContext c =
        new PlatformContext(system.name(), this, sources.resolve(system.name(), system.settings()));
    contexts.add(c);
    return c;
  }

  /**
   * A context for work that is not a system's (a benchmark, a tool): no settings or listeners of
   * its own.
   */
  public synchronized SystemContext contextFor(String name) {
    PlatformContext existing = find(name);
    if (existing != null) {
      return existing;
    }
    PlatformContext c = new PlatformContext(name, this, settings.resolve(name, List.of()));
    contexts.add(c);
    return c;
  }

  private PlatformContext find(String name) {
    for (PlatformContext c : contexts) {
      if (c.system().equals(name)) {
        return c;
      }
    }
    return null;
  }

  /**
   * Closes the context of {@code name} (what that system opened, last first) and forgets it; the
   * platform stays open.
   */
  public synchronized void close(String name) {
    PlatformContext c = find(name);
    if (c != null) {
      c.close();
      contexts.remove(c);
    }
  }

  /** The listeners {@code system} has opened so far, in order (none before it started). */
  public synchronized List<Listener> listeners(String system) {
    PlatformContext c = find(system);
    return c == null ? List.of() : c.listeners();
  }

  /** The gate of {@code system}'s writes in this process (one per name, made when first asked). */
  public synchronized WriteGate writeGate(String system) {
    return gates.computeIfAbsent(system, s -> new WriteGate(s, disk));
  }

  /** The floor of free space under the embedded HBase's data (none on a cluster). */
  public DiskSpaceGuard disk() {
    return disk;
  }

  public HBaseRuntime runtime() {
    return runtime;
  }

  public Path dataDir() {
    return dataDir;
  }

  public Clock clock() {
    return clock;
  }

  public MeterRegistry metrics() {
    return metrics;
  }

  /** The metrics in Prometheus text format. */
  public String scrape() {
    return metrics.scrape();
  }

  public AccessRule access() {
    return access;
  }

  /** Where changes are recorded: the audit table when the builder asked for one, else nowhere. */
  public org.casebook.core.access.AuditLog audit() {
    return auditTable.isPresent() ? auditTable.get() : org.casebook.core.access.AuditLog.none();
  }

  /** The audit table, when this platform keeps one (for listing it). */
  public Optional<org.casebook.core.access.AuditTable> auditTable() {
    return auditTable;
  }

  public String bindAddress() {
    return bindAddress;
  }

  /** The TLS every listener of this platform serves (HTTP's too), if the operator gave some. */
  public Optional<ServerTls> tls() {
    return tls;
  }

  ExecutorService sideWork() {
    return sideWork;
  }

  synchronized int listenerCount(String system) {
    return listenerCounts.getOrDefault(system, 1);
  }

  /** The port chosen for a listener: the operator's option, else the spec's default. */
  synchronized int portFor(String system, ListenerSpec spec) {
    String option = spec.portOption(system, listenerCount(system) == 1);
    return ports.getOrDefault(option, spec.defaultPort());
  }

  @Override
  public synchronized void close() {
    for (int i = contexts.size() - 1; i >= 0; i--) {
      contexts.get(i).close();
    }
    contexts.clear();
    Threads.shutdown(sideWork, java.time.Duration.ofSeconds(10));
    auditTable.ifPresent(org.casebook.core.access.AuditTable::close);
    tls.ifPresent(ServerTls::close);
    metrics.close();
  }

  /** Builds a {@link Platform}. */
  public static final class Builder {
    private final HBaseRuntime runtime;
    private final Path dataDir;
    private Clock clock = Clock.systemUTC();
    private AccessRule access = AccessRule.open();
    private org.apache.hadoop.hbase.TableName auditName;
    private java.time.Duration auditRetention;
    private String bindAddress = "127.0.0.1";
    private ServerTls tls;
    private final Map<String, Integer> ports = new HashMap<>();
    private SettingSources settings = SettingSources.none();
    private int sideWorkThreads = Math.min(16, 4 * Runtime.getRuntime().availableProcessors());

    private Builder(HBaseRuntime runtime, Path dataDir) {
      this.runtime = Objects.requireNonNull(runtime, "runtime is null");
      this.dataDir = Objects.requireNonNull(dataDir, "dataDir is null").toAbsolutePath();
    }

    public Builder clock(Clock value) {
      this.clock = Objects.requireNonNull(value, "clock is null");
      return this;
    }

    public Builder access(AccessRule value) {
      this.access = Objects.requireNonNull(value, "access is null");
      return this;
    }

    /**
     * Keep an audit trail in table {@code name} (made or its retention changed when the platform is
     * built), entries kept for {@code retention}.
     */
    public Builder auditTrail(
        org.apache.hadoop.hbase.TableName name, java.time.Duration retention) {
      this.auditName = Objects.requireNonNull(name, "name is null");
      this.auditRetention = Objects.requireNonNull(retention, "retention is null");
      return this;
    }

    public Builder bindAddress(String value) {
      this.bindAddress = Objects.requireNonNull(value, "bindAddress is null");
      return this;
    }

    /** TLS for every listener; the platform closes it (stops its reload poll) when it closes. */
    public Builder tls(ServerTls value) {
      this.tls = Objects.requireNonNull(value, "tls is null");
      return this;
    }

    /** Where systems' settings come from (default: none, every setting at its default). */
    public Builder settings(SettingSources value) {
      this.settings = Objects.requireNonNull(value, "settings is null");
      return this;
    }

    /** The port for a listener option such as {@code --tsdb-port}. */
    public Builder port(String option, int port) {
      InvalidInputException.check(
          port >= 0 && port <= 65535, option.replaceFirst("^--", ""), option + " must be 0..65535");
      ports.put(option, port);
      return this;
    }

    public Platform build() {
      return new Platform(this);
    }
  }
}
