package org.casebook.server;

import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.casebook.core.AccessRule;
import org.casebook.core.CasebookSystem;
import org.casebook.core.InvalidInputException;
import org.casebook.core.Platform;
import org.casebook.core.SystemDescriptor;
import org.casebook.core.access.AccessFile;
import org.casebook.core.net.ListenerSpec;
import org.casebook.core.tls.ServerTls;
import org.casebook.core.tls.TlsFiles;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;

/**
 * {@code casebook serve}: HBase (embedded unless configured), every system started on the platform,
 * one HTTP server, and each system's own listeners. Knows no system by name: listener port options
 * ({@code --<system>-port}) come from the descriptors. TLS material, when given, serves every
 * listener; a non-loopback {@code --bind} without it needs {@code --insecure}.
 */
@Command(
    name = "serve",
    mixinStandardHelpOptions = true,
    description =
        "Start HBase (embedded unless --zk/HBASE_CONF_DIR), ensure all schemas, start every system, serve the REST API.")
final class ServeCommand implements Callable<Integer> {
  private static final Logger LOG = LoggerFactory.getLogger(ServeCommand.class);

  @Option(
      names = "--port",
      paramLabel = "PORT",
      defaultValue = "8080",
      description = "HTTP port (0 = any free port; default ${DEFAULT-VALUE}).")
  int port;

  @Option(
      names = "--bind",
      paramLabel = "ADDRESS",
      defaultValue = "127.0.0.1",
      description = "Address every listener binds (default ${DEFAULT-VALUE}).")
  String bind;

  @Option(
      names = "--token-file",
      paramLabel = "FILE",
      description =
          "File whose first line is the token every write must present (preferred: not visible in ps).")
  java.nio.file.Path tokenFile;

  @Option(
      names = "--token",
      paramLabel = "TOKEN",
      defaultValue = "${env:CASEBOOK_TOKEN}",
      description =
          "The write token itself (default: $CASEBOOK_TOKEN). Visible in ps: prefer --token-file or the variable.")
  String token;

  @Option(
      names = "--access-file",
      paramLabel = "FILE",
      description =
          "JSON file of principals (token digests or token files), roles and grants per system"
              + " (none, read, write, admin), and what anonymous callers get; instead of a token.")
  java.nio.file.Path accessFile;

  @Option(
      names = "--audit-retention-days",
      paramLabel = "DAYS",
      defaultValue = "365",
      description =
          "How long the audit trail (table casebook:audit) keeps entries (default ${DEFAULT-VALUE}).")
  int auditRetentionDays;

  @Option(
      names = "--tls-cert",
      paramLabel = "FILE",
      description =
          "PEM certificate chain (the server's certificate first) for every listener; with --tls-key.")
  java.nio.file.Path tlsCert;

  @Option(
      names = "--tls-key",
      paramLabel = "FILE",
      description = "Unencrypted PKCS#8 PEM private key of --tls-cert (keep it chmod 600).")
  java.nio.file.Path tlsKey;

  @Option(
      names = "--tls-keystore",
      paramLabel = "FILE",
      description =
          "PKCS#12 keystore holding one private key and its chain, instead of --tls-cert/--tls-key.")
  java.nio.file.Path tlsKeystore;

  @Option(
      names = "--tls-keystore-password-file",
      paramLabel = "FILE",
      description = "File whose first line is the --tls-keystore password.")
  java.nio.file.Path tlsKeystorePasswordFile;

  @Option(
      names = "--tls-reload-seconds",
      paramLabel = "N",
      defaultValue = "10",
      description =
          "Look for rotated TLS files every N seconds; new connections get the new certificate (0 = never; default ${DEFAULT-VALUE}).")
  int tlsReloadSeconds;

  @Option(
      names = "--insecure",
      description =
          "Serve plain text on a non-loopback --bind (tokens and data readable on the network).")
  boolean insecure;

  @Option(
      names = "--threads",
      paramLabel = "N",
      defaultValue = "16",
      description = "HTTP worker threads (default ${DEFAULT-VALUE}).")
  int threads;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  private final List<CasebookSystem> systems;
  private final CliContext context;

  ServeCommand(List<CasebookSystem> systems, CliContext context) {
    this.systems = systems;
    this.context = context;
  }

  /** Adds a {@code --<system>[-<listener>]-port} option per listener of every system. */
  static void addListenerOptions(CommandLine serve, List<CasebookSystem> systems) {
    for (CasebookSystem s : systems) {
      SystemDescriptor d = s.descriptor();
      for (ListenerSpec l : d.listeners()) {
        serve
            .getCommandSpec()
            .addOption(
                OptionSpec.builder(l.portOption(d.name(), d.listeners().size() == 1))
                    .paramLabel("PORT")
                    .type(Integer.class)
                    .description(
                        d.name()
                            + " "
                            + l.summary()
                            + " ("
                            + l.protocol()
                            + "; default "
                            + l.defaultPort()
                            + ", 0 = any free port).")
                    .build());
      }
    }
  }

  /**
   * The access file's rule, else the token from --token-file, else --token / $CASEBOOK_TOKEN, else
   * open. Beyond loopback, one token closes the reads of the systems whose data is private.
   */
  AccessRule accessRule() {
    boolean tokenGiven = tokenFile != null || (token != null && !token.isBlank());
    if (accessFile != null) {
      InvalidInputException.check(
          !tokenGiven,
          "access-file",
          "--access-file declares the tokens: give it without --token-file, --token or"
              + " CASEBOOK_TOKEN");
      AccessRule rule = org.casebook.core.access.AccessFile.read(accessFile);
      java.util.Set<String> known = new java.util.TreeSet<>();
      systems.forEach(s -> known.add(s.descriptor().name()));
      known.add(org.casebook.core.access.Caller.PLATFORM);
      for (String named : rule.namedSystems()) {
        InvalidInputException.check(
            known.contains(named),
            "access-file",
            accessFile
                + " grants on "
                + named
                + ", which is not a system here (known: "
                + known
                + ")");
      }
      return rule;
    }
    AccessRule rule;
    if (tokenFile != null) {
      rule = AccessRule.token(AccessFile.readToken(tokenFile, "token-file"));
    } else {
      rule = token == null || token.isBlank() ? AccessRule.open() : AccessRule.token(token);
    }
    if (isLoopback(bind)) {
      return rule;
    }
    return rule.closingAnonymousReads(privateSystems());
  }

  private List<String> privateSystems() {
    return systems.stream()
        .map(CasebookSystem::descriptor)
        .filter(org.casebook.core.SystemDescriptor::privateReads)
        .map(org.casebook.core.SystemDescriptor::name)
        .toList();
  }

  /** The TLS files given, or none; half a pair or both kinds is refused. */
  java.util.Optional<TlsFiles> tlsFiles() {
    boolean pem = tlsCert != null || tlsKey != null;
    boolean keystore = tlsKeystore != null || tlsKeystorePasswordFile != null;
    InvalidInputException.check(
        !(pem && keystore),
        "tls-keystore",
        "give either --tls-cert with --tls-key or --tls-keystore with"
            + " --tls-keystore-password-file, not both");
    if (pem) {
      InvalidInputException.check(
          tlsCert != null && tlsKey != null,
          tlsCert == null ? "tls-cert" : "tls-key",
          "--tls-cert and --tls-key go together");
      return java.util.Optional.of(TlsFiles.pem(tlsCert, tlsKey));
    }
    if (keystore) {
      InvalidInputException.check(
          tlsKeystore != null && tlsKeystorePasswordFile != null,
          tlsKeystore == null ? "tls-keystore" : "tls-keystore-password-file",
          "--tls-keystore and --tls-keystore-password-file go together");
      return java.util.Optional.of(TlsFiles.pkcs12(tlsKeystore, tlsKeystorePasswordFile));
    }
    return java.util.Optional.empty();
  }

  /**
   * Plain text is for loopback: beyond it the write token and the data would cross the network
   * readable, so that takes TLS material or an explicit {@code --insecure}.
   */
  static void checkTransport(String bind, boolean tls, boolean insecure) {
    InvalidInputException.check(
        !(tls && insecure), "insecure", "--insecure and TLS files contradict each other");
    InvalidInputException.check(
        tls || insecure || isLoopback(bind),
        "bind",
        "--bind "
            + bind
            + " is not a loopback address: give --tls-cert and --tls-key (or --tls-keystore and"
            + " --tls-keystore-password-file) to serve TLS, or --insecure to serve plain text"
            + " anyway");
  }

  /** True when {@code address} names (or resolves to) a loopback address. */
  static boolean isLoopback(String address) {
    try {
      return java.net.InetAddress.getByName(address).isLoopbackAddress();
    } catch (java.net.UnknownHostException e) {
      throw new InvalidInputException("bind", "--bind " + address + " does not resolve");
    }
  }

  @Override
  public Integer call() throws Exception {
    long t0 = System.nanoTime();
    AccessRule access = accessRule();
    java.util.Optional<TlsFiles> files = tlsFiles();
    checkTransport(bind, files.isPresent(), insecure);
    InvalidInputException.check(
        tlsReloadSeconds >= 0, "tls-reload-seconds", "--tls-reload-seconds must be 0 or more");
    InvalidInputException.check(
        auditRetentionDays >= 1,
        "audit-retention-days",
        "--audit-retention-days must be 1 or more");
    if (access.mode() == AccessRule.Mode.OPEN && !isLoopback(bind)) {
      LOG.warn(
          "no --token-file or --access-file: anyone who reaches {} may write and delete, and the"
              + " systems with private data ({}) answer nobody",
          bind,
          privateSystems());
    }
    java.util.Optional<ServerTls> tls =
        files.map(f -> ServerTls.start(f, java.time.Duration.ofSeconds(tlsReloadSeconds)));
    if (insecure) {
      LOG.warn(
          "--insecure: serving plain text on {}; the write token and all data cross the network"
              + " readable",
          bind);
    }
    context.runsLong();
    Platform platform;
    try {
      platform =
          context.platform(
              b -> {
                b.bindAddress(bind)
                    .access(access)
                    .auditTrail(
                        org.casebook.core.access.AuditTable.DEFAULT_NAME,
                        java.time.Duration.ofDays(auditRetentionDays));
                tls.ifPresent(b::tls);
                for (OptionSpec o : spec.options()) {
                  if (o.longestName().endsWith("-port")
                      && !o.longestName().equals("--port")
                      && o.getValue() != null) {
                    b.port(o.longestName(), (Integer) o.getValue());
                  }
                }
              });
    } catch (RuntimeException e) {
      tls.ifPresent(ServerTls::close);
      throw e;
    }
    String scheme = tls.isPresent() ? "https" : "http";
    CountDownLatch stopped = new CountDownLatch(1);
    Server[] server = new Server[1];
    Runnable shutdown =
        () -> {
          LOG.info("shutting down: HTTP, systems (last started first), then HBase");
          if (server[0] != null) {
            ServeAddress.remove(platform.dataDir());
            server[0].close();
          }
          context.close();
          LOG.info("stopped");
          stopped.countDown();
        };
    // Through Hadoop's hook manager, ahead of its FileSystem hook, so HBase flushes before files
    // close; with a budget above the systems' own grace periods (Hadoop's default is 30 s).
    org.apache.hadoop.util.ShutdownHookManager hooks =
        org.apache.hadoop.util.ShutdownHookManager.get();
    hooks.addShutdownHook(shutdown, 1000, 5, java.util.concurrent.TimeUnit.MINUTES);
    try {
      server[0] = Server.start(systems, platform, port, Math.max(2, threads));
    } catch (RuntimeException e) {
      hooks.removeShutdownHook(shutdown);
      shutdown.run();
      throw e;
    }
    if (platform.runtime().mode() == org.casebook.core.HBaseRuntime.Mode.EMBEDDED
        && !platform.runtime().attached()) {
      String host = bind.equals("0.0.0.0") || bind.equals("::") ? "127.0.0.1" : bind;
      ServeAddress.write(
          platform.dataDir(),
          java.net.URI.create(
              scheme
                  + "://"
                  + (host.contains(":") ? "[" + host + "]" : host)
                  + ":"
                  + server[0].port()));
    }
    StringBuilder listeners = new StringBuilder();
    server[0]
        .listeners()
        .forEach(
            (name, l) ->
                listeners.append(", ").append(name).append(" :").append(l.address().getPort()));
    System.err.printf(
        "Casebook serving %s://%s:%d%s%s  (HBase %s; up in %.1f s; Ctrl-C stops)%n",
        scheme,
        bind,
        server[0].port(),
        listeners,
        tls.isPresent()
            ? " over TLS"
            : insecure ? " in PLAIN TEXT beyond loopback (--insecure)" : "",
        platform.runtime().description(),
        (System.nanoTime() - t0) / 1e9);
    java.util.concurrent.atomic.AtomicInteger exitCode =
        new java.util.concurrent.atomic.AtomicInteger();
    if (platform.runtime().mode() == org.casebook.core.HBaseRuntime.Mode.EMBEDDED
        && !platform.runtime().attached()) {
      watchEmbeddedHBase(platform, hooks, shutdown, stopped, exitCode);
    }
    stopped.await();
    return exitCode.get();
  }

  /**
   * Stops the server, non-zero, when the embedded HBase it owns stops serving (a region server
   * abort): every request would fail from then on, and a restart replays the WAL. A bounded stop:
   * what the systems still hold for a dead HBase cannot be stored anyway.
   */
  private static void watchEmbeddedHBase(
      Platform platform,
      org.apache.hadoop.util.ShutdownHookManager hooks,
      Runnable shutdown,
      CountDownLatch stopped,
      java.util.concurrent.atomic.AtomicInteger exitCode) {
    Thread watchdog =
        new Thread(
            () -> {
              try {
                while (!stopped.await(1, java.util.concurrent.TimeUnit.SECONDS)) {
                  java.util.Optional<String> failure = platform.runtime().embeddedFailure();
                  if (failure.isPresent()) {
                    stopAfterFailure(failure.get(), hooks, shutdown, stopped, exitCode);
                    return;
                  }
                }
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            },
            "casebook-hbase-watchdog");
    watchdog.setDaemon(true);
    watchdog.start();
  }

  /** Says why, and stops the server (at most {@link #STOP_AFTER_FAILURE_SECONDS}) with exit 5. */
  private static void stopAfterFailure(
      String failure,
      org.apache.hadoop.util.ShutdownHookManager hooks,
      Runnable shutdown,
      CountDownLatch stopped,
      java.util.concurrent.atomic.AtomicInteger exitCode)
      throws InterruptedException {
    int code = org.casebook.core.ErrorKind.STORAGE_UNAVAILABLE.exitCode();
    System.err.printf(
        "HBase stopped serving: %s. Casebook stops (exit %d); start it again: HBase"
            + " replays its WAL, so every acknowledged write comes back.%n",
        failure, code);
    exitCode.set(code);
    try {
      hooks.removeShutdownHook(shutdown);
    } catch (IllegalStateException shuttingDown) {
      return; // a stop is under way already
    }
    Thread stopper = new Thread(shutdown, "casebook-stop-after-hbase-failure");
    stopper.setDaemon(true);
    stopper.start();
    if (!stopped.await(STOP_AFTER_FAILURE_SECONDS, java.util.concurrent.TimeUnit.SECONDS)) {
      System.err.printf("the stop did not finish in %d s; exiting%n", STOP_AFTER_FAILURE_SECONDS);
      Runtime.getRuntime().halt(code);
    }
  }

  /** How long the stop after an HBase failure may take before the process exits regardless. */
  private static final int STOP_AFTER_FAILURE_SECONDS = 30;
}
