package org.casebook.core;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.file.Path;
import java.time.Clock;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.client.Connection;
import org.casebook.core.net.LineProtocol;
import org.casebook.core.net.LineServer;
import org.casebook.core.net.Listener;
import org.casebook.core.net.ListenerSpec;
import org.casebook.core.settings.SystemSettings;

/**
 * What one system gets from the process, once: HBase, a clock tests can control, shared and own
 * executors with named daemon threads, the one JSON mapper, metrics, the access rule, its settings,
 * and listeners on the platform's bind address. Everything a system opens here is closed by the
 * platform in reverse order of opening.
 *
 * <p>The platform makes the real one ({@link Platform#contextFor}); a unit test may implement this
 * interface with what its code uses.
 */
public interface SystemContext {
  /** The name of the system this context belongs to. */
  String system();

  /** The process's one HBase connection. */
  Connection connection();

  /**
   * The Hadoop configuration of this HBase (embedded or a cluster's site files) for batch jobs:
   * where MapReduce runs and which file system it stages on.
   */
  Configuration configuration();

  /** Where a system may keep local files (quarantine, rejects, reports); never HBase data. */
  Path dataDir();

  Clock clock();

  /** The process's one JSON mapper ({@link Json#mapper()}). */
  default ObjectMapper json() {
    return Json.mapper();
  }

  MeterRegistry metrics();

  /**
   * Who may do what here, with the audit trail and the refusal counter: a system's own listeners
   * check and record through it as HTTP does.
   */
  org.casebook.core.access.AccessGate access();

  /** The effective values of the settings the system declared in its descriptor. */
  SystemSettings settings();

  /**
   * The gate every change of this system passes at the edge, which a backup pauses: HTTP write
   * routes pass it by themselves; a system's own listeners and background work take a pass per
   * change or batch ({@link WriteGate}).
   */
  WriteGate writes();

  /**
   * The process's shared pool for a request's independent calls run side by side (bounded to the
   * machine). Callers wait for what they submit; tasks here never wait on other tasks here.
   */
  ExecutorService sideWork();

  /**
   * A single-threaded scheduler of this system's own ({@code <system>-<name>-1}), stopped at close.
   */
  ScheduledExecutorService background(String name);

  /**
   * Registers {@code resource} to be closed with this context (in reverse order of registration).
   */
  <T extends AutoCloseable> T own(T resource);

  /**
   * Opens {@code spec} on the platform's bind address and the port the operator chose (or the
   * spec's default), owned by this context.
   */
  Listener listen(ListenerSpec spec, Listener.Factory factory);

  /** Serves a line protocol ({@link LineServer}) on {@code spec}. */
  default Listener listenLines(ListenerSpec spec, LineProtocol protocol, LineServer.Limits limits) {
    return listen(spec, LineServer.factory(protocol, limits));
  }
}
