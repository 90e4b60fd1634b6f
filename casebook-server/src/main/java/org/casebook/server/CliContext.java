package org.casebook.server;

import java.net.InetSocketAddress;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.casebook.core.CasebookSystem;
import org.casebook.core.HBaseRuntime;
import org.casebook.core.InvalidInputException;
import org.casebook.core.Platform;
import org.casebook.core.SystemContext;
import org.casebook.core.SystemDescriptor;
import org.casebook.core.cli.RuntimeOptions;
import org.casebook.core.net.Listener;
import org.casebook.core.net.ListenerSpec;
import org.casebook.core.schema.SchemaManager;
import org.casebook.core.settings.Setting;
import org.casebook.core.settings.SettingSources;

/**
 * The HBase runtime and platform of one CLI invocation: started (or attached) on first use, with
 * every registered table ensured, and closed when the command ends.
 */
final class CliContext implements Session, AutoCloseable {
  private final RuntimeOptions options;
  private final List<CasebookSystem> systems;
  private HBaseRuntime runtime;
  private boolean runsLong;
  private boolean schemasEnsured;
  private SettingSources settingSources;
  private Platform platform;
  private Server served;

  CliContext(RuntimeOptions options, List<CasebookSystem> systems) {
    this.options = Objects.requireNonNull(options, "options is null");
    this.systems = systems;
  }

  /** The context of {@code system}, with HBase started and every table ensured on first use. */
  Supplier<SystemContext> contextOf(CasebookSystem system) {
    return () -> platform(b -> {}).contextFor(system.descriptor());
  }

  /**
   * Where settings come from, read once; a key in the file or {@code --set} that no system declares
   * is refused here.
   */
  synchronized SettingSources settingSources() {
    if (settingSources == null) {
      SettingSources s = options.settingSources();
      s.checkKnown(declaredSettings(systems));
      settingSources = s;
    }
    return settingSources;
  }

  static Map<String, List<Setting<?>>> declaredSettings(List<CasebookSystem> systems) {
    Map<String, List<Setting<?>>> declared = new LinkedHashMap<>();
    for (CasebookSystem s : systems) {
      declared.put(s.descriptor().name(), s.descriptor().settings());
    }
    return declared;
  }

  RuntimeOptions options() {
    return options;
  }

  @Override
  public List<String> runtimeOptionsGiven() {
    return options.given();
  }

  /**
   * The platform, made on the first call with {@code settings} applied (later calls get the same
   * one): {@code serve} calls this first with its bind address, token and ports.
   */
  synchronized Platform platform(Consumer<Platform.Builder> settings) {
    if (platform == null) {
      SettingSources sources = settingSources();
      HBaseRuntime r = runtimeOnly();
      if (!schemasEnsured) {
        new SchemaManager(r.connection()).ensureAll(Systems.allTables(systems, sources));
        schemasEnsured = true;
      }
      Platform.Builder b = Platform.builder(r, options.dataDir()).settings(sources);
      settings.accept(b);
      platform = b.build();
    }
    return platform;
  }

  /**
   * Marks this invocation as a long-running one (serve, bench): the runtime, when started, uses
   * {@link org.casebook.core.RuntimeSettings#forLongRunning}.
   */
  synchronized void runsLong() {
    runsLong = true;
  }

  /** The runtime without ensuring schemas (for commands that manage schemas themselves). */
  synchronized HBaseRuntime runtimeOnly() {
    if (runtime == null) {
      runtime =
          HBaseRuntime.start(runsLong ? options.settings().forLongRunning() : options.settings());
      System.err.printf(
          "HBase: %s, ready in %.1f s%n", runtime.description(), runtime.startupMillis() / 1000.0);
    }
    return runtime;
  }

  /**
   * The declared tables of the systems named in {@code chosen} (all systems when empty), where the
   * settings put them, by system.
   */
  java.util.Map<String, List<org.apache.hadoop.hbase.TableName>> declaredTables(
      List<String> chosen) {
    java.util.Map<String, List<org.apache.hadoop.hbase.TableName>> out =
        new java.util.LinkedHashMap<>();
    List<CasebookSystem> picked = new java.util.ArrayList<>();
    if (chosen.isEmpty()) {
      picked.addAll(systems);
    } else {
      for (String name : new java.util.LinkedHashSet<>(chosen)) {
        picked.add(system(name));
      }
    }
    for (CasebookSystem s : picked) {
      out.put(
          s.descriptor().name(),
          Systems.tables(s, settingSources()).stream()
              .map(org.casebook.core.schema.TableSpec::name)
              .toList());
    }
    return out;
  }

  @Override
  public List<CasebookSystem> systems() {
    return systems;
  }

  @Override
  public CasebookSystem system(String name) {
    return systems.stream()
        .filter(s -> s.descriptor().name().equals(name))
        .findFirst()
        .orElseThrow(
            () ->
                new InvalidInputException(
                    "system",
                    "no system named '"
                        + name
                        + "' (there are "
                        + String.join(
                            ", ", systems.stream().map(s -> s.descriptor().name()).toList())
                        + ")"));
  }

  @Override
  public synchronized HBaseRuntime runtime() {
    return sessionPlatform().runtime();
  }

  @Override
  public synchronized SystemContext context(String name) {
    return sessionPlatform().contextFor(name);
  }

  @Override
  public synchronized SystemContext context(CasebookSystem system, Map<String, String> settings) {
    Platform p = sessionPlatform();
    ensureTables(List.of(system), settings);
    return p.contextFor(system.descriptor(), settings);
  }

  /**
   * The platform of work started from a session (a benchmark), long-running and with every listener
   * on a free port: it must not stand in the way of a {@code serve} on this machine's default
   * ports, nor the other way round.
   */
  private Platform sessionPlatform() {
    runsLong();
    return platform(
        b -> {
          for (CasebookSystem s : systems) {
            SystemDescriptor d = s.descriptor();
            for (ListenerSpec l : d.listeners()) {
              b.port(l.portOption(d.name(), d.listeners().size() == 1), 0);
            }
          }
        });
  }

  /**
   * Ensures {@code chosen}'s tables under {@code settings} set as by {@code --set}: the platform
   * ensured them under the operator's settings only. A key none of them declares is refused.
   */
  private void ensureTables(List<CasebookSystem> chosen, Map<String, String> settings) {
    SettingSources.checkSet(settings, declaredSettings(chosen));
    if (settings.isEmpty()) {
      return;
    }
    SettingSources sources = settingSources().withSet(settings);
    new SchemaManager(runtimeOnly().connection()).ensureAll(Systems.allTables(chosen, sources));
  }

  @Override
  public synchronized Served serve(
      List<CasebookSystem> chosen, int httpThreads, Map<String, String> settings) {
    if (served != null) {
      throw new IllegalStateException("this session serves its systems already");
    }
    List<CasebookSystem> systems = List.copyOf(chosen);
    Platform p = sessionPlatform();
    ensureTables(systems, settings);
    Server server = Server.start(systems, p, 0, httpThreads, settings);
    served = server;
    return new Served() {
      @Override
      public int port() {
        return server.port();
      }

      @Override
      public InetSocketAddress listener(String system, String listener) {
        Listener l = server.listeners().get(system + " " + listener);
        if (l == null) {
          throw new IllegalArgumentException(
              "no listener '" + listener + "' of " + system + " is served here");
        }
        return l.address();
      }

      @Override
      public void close() {
        synchronized (CliContext.this) {
          server.close();
          served = null;
        }
      }
    };
  }

  @Override
  public synchronized void close() {
    try {
      if (served != null) {
        served.close();
        served = null;
      }
      if (platform != null) {
        platform.close();
        platform = null;
      }
    } finally {
      if (runtime != null) {
        runtime.close();
        runtime = null;
      }
    }
  }
}
