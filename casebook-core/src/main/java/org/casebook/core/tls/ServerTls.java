package org.casebook.core.tls;

import java.io.IOException;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.GeneralSecurityException;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.X509ExtendedKeyManager;
import org.casebook.core.InvalidInputException;
import org.casebook.core.Threads;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The TLS side of every listener of one server: one key manager that always offers the current
 * certificate, so a rotated certificate is used by new connections without a restart (open
 * connections keep the one they shook hands with). The files are polled for a change of
 * modification time, size or identity (a file replaced by a rename); a bad new file is logged and
 * the old material kept.
 */
public final class ServerTls implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ServerTls.class);

  /** The protocols every listener offers: nothing older than TLS 1.2. */
  public static final List<String> PROTOCOLS = List.of("TLSv1.3", "TLSv1.2");

  /**
   * The suites offered: TLS 1.3's, and for 1.2 only forward-secret AEAD suites (the ones HTTP/2
   * allows, so gRPC takes the same list).
   */
  public static final List<String> CIPHER_SUITES =
      List.of(
          "TLS_AES_128_GCM_SHA256",
          "TLS_AES_256_GCM_SHA384",
          "TLS_CHACHA20_POLY1305_SHA256",
          "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256",
          "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256",
          "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384",
          "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384",
          "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256",
          "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256");

  /** How far ahead of a certificate's end a load warns. */
  private static final Duration EXPIRY_WARNING = Duration.ofDays(14);

  private final TlsFiles files;
  private final Clock clock;
  private final RotatingKeyManager keyManager;
  private final SSLContext context;
  private final AtomicLong generation = new AtomicLong();
  private final ScheduledExecutorService poller;
  private List<FileState> seen;

  private ServerTls(TlsFiles files, Clock clock, Duration pollEvery) {
    this.files = files;
    this.clock = clock;
    this.seen = states(files);
    ServerKey first = files.load();
    warnAboutValidity(first);
    this.keyManager = new RotatingKeyManager(alias(first, generation.incrementAndGet()), first);
    try {
      this.context = SSLContext.getInstance("TLS");
      context.init(new javax.net.ssl.KeyManager[] {keyManager}, null, null);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("the JDK offers no TLS context", e);
    }
    if (pollEvery.isZero()) {
      this.poller = null;
    } else {
      this.poller = Executors.newSingleThreadScheduledExecutor(Threads.daemon("tls-reload"));
      // The poll never throws (a failed load is logged), so its future holds nothing to read.
      ScheduledFuture<?> unused =
          poller.scheduleWithFixedDelay(
              this::reloadIfChanged,
              pollEvery.toMillis(),
              pollEvery.toMillis(),
              TimeUnit.MILLISECONDS);
    }
    LOG.info("TLS from {}: {}", files.describe(), ServerKey.describe(first.certificate()));
  }

  /**
   * Loads {@code files} now (a bad file is an error here) and re-reads them after each change seen
   * by a poll every {@code pollEvery} (zero: never; {@link #reloadIfChanged()} still works).
   */
  public static ServerTls start(TlsFiles files, Duration pollEvery) {
    return start(files, pollEvery, Clock.systemUTC());
  }

  static ServerTls start(TlsFiles files, Duration pollEvery, Clock clock) {
    Objects.requireNonNull(files, "files is null");
    Objects.requireNonNull(pollEvery, "pollEvery is null");
    InvalidInputException.check(
        !pollEvery.isNegative(), "tls-reload", "the reload interval must not be negative");
    return new ServerTls(files, clock, pollEvery);
  }

  /** The JDK context for blocking sockets; its key manager is the rotating one. */
  public SSLContext context() {
    return context;
  }

  /** For Netty's {@code SslContextBuilder.forServer(KeyManager)}: always the current key. */
  public X509ExtendedKeyManager keyManager() {
    return keyManager;
  }

  /** The certificate new connections get now. */
  public ServerKey current() {
    return keyManager.current().key();
  }

  /** A server socket offering only {@link #PROTOCOLS} and {@link #CIPHER_SUITES}. */
  public SSLServerSocket serverSocket() throws IOException {
    SSLServerSocket s = (SSLServerSocket) context.getServerSocketFactory().createServerSocket();
    s.setEnabledProtocols(PROTOCOLS.toArray(String[]::new));
    s.setEnabledCipherSuites(supported(s.getSupportedCipherSuites()));
    return s;
  }

  private static String[] supported(String[] available) {
    List<String> all = Arrays.asList(available);
    return CIPHER_SUITES.stream().filter(all::contains).toArray(String[]::new);
  }

  /**
   * Re-reads the files if any changed since the last look; true if new material is now in use. A
   * file that does not load (half written, wrong key, bad password) keeps the current material and
   * is logged once per change.
   */
  public synchronized boolean reloadIfChanged() {
    List<FileState> now;
    try {
      now = states(files);
    } catch (RuntimeException e) {
      LOG.warn("TLS reload: cannot look at {}: {}", files.describe(), e.getMessage());
      return false;
    }
    if (now.equals(seen)) {
      return false;
    }
    seen = now;
    ServerKey next;
    try {
      next = files.load();
    } catch (RuntimeException e) { // whatever a bad file throws, the poll must live on
      LOG.warn(
          "TLS reload: {} changed but does not load ({}); still serving {}",
          files.describe(),
          e.getMessage(),
          ServerKey.describe(current().certificate()));
      return false;
    }
    warnAboutValidity(next);
    keyManager.use(alias(next, generation.incrementAndGet()), next);
    LOG.info("TLS reload: new connections get {}", ServerKey.describe(next.certificate()));
    return true;
  }

  private void warnAboutValidity(ServerKey key) {
    X509Certificate c = key.certificate();
    Instant now = clock.instant();
    if (now.isAfter(c.getNotAfter().toInstant())) {
      LOG.warn("the TLS certificate has expired: {}", ServerKey.describe(c));
    } else if (now.isBefore(c.getNotBefore().toInstant())) {
      LOG.warn("the TLS certificate is not valid yet: {}", ServerKey.describe(c));
    } else if (now.plus(EXPIRY_WARNING).isAfter(c.getNotAfter().toInstant())) {
      LOG.warn("the TLS certificate expires within {}: {}", EXPIRY_WARNING, ServerKey.describe(c));
    }
  }

  private static String alias(ServerKey key, long generation) {
    return "casebook-" + generation + "-" + key.serial();
  }

  /** What a poll compares: a rename onto the path changes the file key even in the same second. */
  private record FileState(Path path, Instant modified, long size, Object fileKey) {}

  private static List<FileState> states(TlsFiles files) {
    List<FileState> out = new ArrayList<>();
    for (Path p : files.files()) {
      try {
        BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class);
        out.add(new FileState(p, a.lastModifiedTime().toInstant(), a.size(), a.fileKey()));
      } catch (NoSuchFileException e) {
        out.add(new FileState(p, Instant.EPOCH, -1, null));
      } catch (IOException e) {
        throw new IllegalStateException("cannot read the attributes of " + p + ": " + e, e);
      }
    }
    return out;
  }

  @Override
  public void close() {
    if (poller != null) {
      Threads.shutdown(poller, Duration.ofSeconds(5));
    }
  }

  /**
   * Offers one key under an alias unique to its load, and still answers for the previous alias: a
   * handshake that chose an alias just before a rotation gets that alias's key and chain, never a
   * mix of old and new.
   */
  private static final class RotatingKeyManager extends X509ExtendedKeyManager {
    private record Entry(String alias, ServerKey key) {}

    private volatile Entry current;
    private volatile Entry previous;

    RotatingKeyManager(String alias, ServerKey key) {
      this.current = new Entry(alias, key);
      this.previous = current;
    }

    Entry current() {
      return current;
    }

    synchronized void use(String alias, ServerKey key) {
      previous = current;
      current = new Entry(alias, key);
    }

    private Entry find(String alias) {
      Entry c = current;
      if (c.alias().equals(alias)) {
        return c;
      }
      Entry p = previous;
      return p.alias().equals(alias) ? p : null;
    }

    /** The alias if the key suits {@code keyType} ("RSA", "EC", or "EC_RSA" style). */
    private String aliasFor(String keyType) {
      Entry c = current;
      if (keyType == null) {
        return null;
      }
      int cut = keyType.indexOf('_');
      String wanted = cut < 0 ? keyType : keyType.substring(0, cut);
      String algorithm = c.key().key().getAlgorithm();
      boolean rsaPss = wanted.equals("RSASSA-PSS") && algorithm.equals("RSA");
      return wanted.equals(algorithm) || rsaPss ? c.alias() : null;
    }

    @Override
    public String chooseEngineServerAlias(String keyType, Principal[] issuers, SSLEngine engine) {
      return aliasFor(keyType);
    }

    @Override
    public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
      return aliasFor(keyType);
    }

    @Override
    public String[] getServerAliases(String keyType, Principal[] issuers) {
      String a = aliasFor(keyType);
      return a == null ? null : new String[] {a};
    }

    @Override
    public X509Certificate[] getCertificateChain(String alias) {
      Entry e = find(alias);
      return e == null ? null : e.key().chain().toArray(X509Certificate[]::new);
    }

    @Override
    public PrivateKey getPrivateKey(String alias) {
      Entry e = find(alias);
      return e == null ? null : e.key().key();
    }

    @Override
    public String[] getClientAliases(String keyType, Principal[] issuers) {
      return null; // a server's key: never offered as a client certificate
    }

    @Override
    public String chooseClientAlias(String[] keyType, Principal[] issuers, Socket socket) {
      return null;
    }

    @Override
    public String chooseEngineClientAlias(String[] keyType, Principal[] issuers, SSLEngine engine) {
      return null;
    }
  }
}
