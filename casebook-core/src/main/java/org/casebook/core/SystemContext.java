package org.casebook.core;

import com.fasterxml.jackson.databind.ObjectMapper;
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
import org.apache.hadoop.hbase.client.Connection;
import org.casebook.core.net.LineProtocol;
import org.casebook.core.net.LineServer;
import org.casebook.core.net.Listener;
import org.casebook.core.net.ListenerSpec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What one system gets from the process, once: HBase, a clock tests can control, shared and own
 * executors with named daemon threads, the one JSON mapper, metrics, the access rule, and listeners
 * on the platform's bind address. Everything a system opens here is closed by {@link #close()} in
 * reverse order of opening.
 */
public final class SystemContext implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(SystemContext.class);

  /**
   * How long background work may take to finish at shutdown (within the server's shutdown budget).
   */
  static final java.time.Duration BACKGROUND_GRACE = java.time.Duration.ofMinutes(2);

  private final String system;
  private final Platform platform;
  private final Deque<AutoCloseable> owned = new ArrayDeque<>();
  private final List<Listener> listeners = new ArrayList<>();
  private boolean closed;

  SystemContext(String system, Platform platform) {
    this.system = Objects.requireNonNull(system, "system is null");
    this.platform = Objects.requireNonNull(platform, "platform is null");
  }

  /** The name of the system this context belongs to. */
  public String system() {
    return system;
  }

  public HBaseRuntime runtime() {
    return platform.runtime();
  }

  public Connection connection() {
    return platform.runtime().connection();
  }

  /** Where a system may keep local files (quarantine, rejects, reports); never HBase data. */
  public Path dataDir() {
    return platform.dataDir();
  }

  public Clock clock() {
    return platform.clock();
  }

  public ObjectMapper json() {
    return Json.mapper();
  }

  public MeterRegistry metrics() {
    return platform.metrics();
  }

  public AccessRule access() {
    return platform.access();
  }

  /**
   * The process's shared pool for a request's independent calls run side by side (bounded to the
   * machine). Callers wait for what they submit; tasks here never wait on other tasks here.
   */
  public ExecutorService sideWork() {
    return platform.sideWork();
  }

  /**
   * A single-threaded scheduler of this system's own ({@code <system>-<name>-1}), stopped at close.
   */
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

  /**
   * Registers {@code resource} to be closed with this context (in reverse order of registration).
   */
  public synchronized <T extends AutoCloseable> T own(T resource) {
    if (closed) {
      throw new IllegalStateException(system + " is shut down");
    }
    owned.push(Objects.requireNonNull(resource, "resource is null"));
    return resource;
  }

  /**
   * Opens {@code spec} on the platform's bind address and the port the operator chose (or the
   * spec's default), owned by this context.
   */
  public synchronized Listener listen(ListenerSpec spec, Listener.Factory factory) {
    InetSocketAddress address =
        new InetSocketAddress(platform.bindAddress(), platform.portFor(system, spec));
    Listener l;
    try {
      l = factory.open(spec, address);
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
    LOG.info("{}: {} ({}) listening on {}", system, spec.name(), spec.protocol(), l.address());
    return l;
  }

  /** Serves a line protocol ({@link LineServer}) on {@code spec}. */
  public Listener listenLines(ListenerSpec spec, LineProtocol protocol, LineServer.Limits limits) {
    return listen(spec, LineServer.factory(protocol, limits));
  }

  public synchronized List<Listener> listeners() {
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
