package org.casebook.core;

import io.micrometer.core.instrument.MeterRegistry;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.client.Connection;
import org.casebook.core.net.Listener;
import org.casebook.core.net.ListenerSpec;
import org.casebook.core.settings.SystemSettings;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The platform's {@link SystemContext}: one per system (or tool) of a {@link Platform}. Everything
 * the system opens here is closed by {@link #close()} in reverse order of opening.
 */
final class PlatformContext implements SystemContext, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(PlatformContext.class);

  /**
   * How long background work may take to finish at shutdown (within the server's shutdown budget).
   */
  static final java.time.Duration BACKGROUND_GRACE = java.time.Duration.ofMinutes(2);

  private final String system;
  private final Platform platform;
  private final Deque<AutoCloseable> owned = new ArrayDeque<>();
  private final List<Listener> listeners = new ArrayList<>();
  private final SystemSettings settings;
  private boolean closed;

  PlatformContext(String system, Platform platform, SystemSettings settings) {
    this.system = Objects.requireNonNull(system, "system is null");
    this.platform = Objects.requireNonNull(platform, "platform is null");
    this.settings = Objects.requireNonNull(settings, "settings is null");
  }

  @Override
  public String system() {
    return system;
  }

  @Override
  public Connection connection() {
    return platform.runtime().connection();
  }

  @Override
  public Configuration configuration() {
    return platform.runtime().configuration();
  }

  @Override
  public Path dataDir() {
    return platform.dataDir();
  }

  @Override
  public Clock clock() {
    return platform.clock();
  }

  @Override
  public MeterRegistry metrics() {
    return platform.metrics();
  }

  @Override
  public org.casebook.core.access.AccessGate access() {
    return new org.casebook.core.access.AccessGate(
        platform.access(), system, platform.audit(), platform.metrics(), platform.clock());
  }

  @Override
  public WriteGate writes() {
    return platform.writeGate(system);
  }

  @Override
  public SystemSettings settings() {
    return settings;
  }

  @Override
  public ExecutorService sideWork() {
    return platform.sideWork();
  }

  @Override
  public synchronized ScheduledExecutorService background(String name) {
    ScheduledExecutorService s =
        Executors.newSingleThreadScheduledExecutor(Threads.daemon(system + "-" + name));
    own(
        () -> {
          if (!Threads.shutdown(s, BACKGROUND_GRACE)) {
            LOG.warn(
                "{}: background work '{}' still running after {}; interrupted it",
                system,
                name,
                BACKGROUND_GRACE);
          }
        });
    return s;
  }

  @Override
  public synchronized <T extends AutoCloseable> T own(T resource) {
    if (closed) {
      throw new IllegalStateException(system + " is shut down");
    }
    owned.push(Objects.requireNonNull(resource, "resource is null"));
    return resource;
  }

  @Override
  public synchronized Listener listen(ListenerSpec spec, Listener.Factory factory) {
    InetSocketAddress address =
        new InetSocketAddress(platform.bindAddress(), platform.portFor(system, spec));
    Listener l;
    try {
      l = factory.open(spec, address, platform.tls());
    } catch (java.io.IOException e) {
      String option = spec.portOption(system, platform.listenerCount(system) == 1);
      throw new InvalidInputException(
          option.substring(2),
          system
              + ": cannot listen for "
              + spec.name()
              + " on "
              + address
              + ": "
              + e.getMessage()
              + " (choose another port with "
              + option
              + ")");
    }
    listeners.add(l);
    own(l);
    LOG.info(
        "{}: {} ({}{}) listening on {}",
        system,
        spec.name(),
        spec.protocol(),
        platform.tls().isPresent() ? " over TLS" : "",
        l.address());
    return l;
  }

  /** The listeners opened so far, in order. */
  synchronized List<Listener> listeners() {
    return List.copyOf(listeners);
  }

  /** Closes what this system opened, last first; failures are logged and the rest still closed. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    while (!owned.isEmpty()) {
      AutoCloseable c = owned.pop();
      try {
        c.close();
      } catch (Exception e) {
        LOG.error("{}: a resource did not close cleanly", system, e);
      }
    }
  }
}
