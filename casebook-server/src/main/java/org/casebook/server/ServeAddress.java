package org.casebook.server;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Optional;
import java.util.Properties;
import org.casebook.core.LocalFileException;

/**
 * Where the {@code serve} that owns a data directory answers HTTP, written in that directory while
 * it runs, so a CLI command beside it can ask it for what only it can do (a backup with its writes
 * paused).
 */
final class ServeAddress {
  static final String FILE = "casebook-serve.properties";

  private ServeAddress() {}

  /** Records {@code url} as this process's address under {@code dataDir}. */
  static void write(Path dataDir, URI url) {
    Properties p = new Properties();
    p.setProperty("url", url.toString());
    p.setProperty("pid", Long.toString(ProcessHandle.current().pid()));
    Path file = dataDir.resolve(FILE);
    Path tmp = dataDir.resolve(FILE + ".tmp");
    try {
      try (OutputStream out = Files.newOutputStream(tmp)) {
        p.store(out, "the serve of this data directory");
      }
      Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw LocalFileException.of("record the serve's address", file, e);
    }
  }

  /** Forgets the address if this process wrote it. */
  static void remove(Path dataDir) {
    Path file = dataDir.resolve(FILE);
    Properties p = read(file);
    if (p != null && Long.toString(ProcessHandle.current().pid()).equals(p.getProperty("pid"))) {
      try {
        Files.deleteIfExists(file);
      } catch (IOException e) {
        throw LocalFileException.of("remove the serve's address", file, e);
      }
    }
  }

  /** The address of the live serve of {@code dataDir}, if one recorded it. */
  static Optional<URI> of(Path dataDir) {
    Properties p = read(dataDir.resolve(FILE));
    if (p == null || p.getProperty("url") == null || p.getProperty("pid") == null) {
      return Optional.empty();
    }
    long pid;
    try {
      pid = Long.parseLong(p.getProperty("pid"));
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
    boolean alive = ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    return alive ? Optional.of(URI.create(p.getProperty("url"))) : Optional.empty();
  }

  private static Properties read(Path file) {
    Properties p = new Properties();
    try (InputStream in = Files.newInputStream(file)) {
      p.load(in);
      return p;
    } catch (NoSuchFileException e) {
      return null;
    } catch (IOException e) {
      throw LocalFileException.of("read the serve's address", file, e);
    }
  }
}
