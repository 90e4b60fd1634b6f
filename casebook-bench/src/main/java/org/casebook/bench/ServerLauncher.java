package org.casebook.bench;

/**
 * Starts the whole server (every system, the console) in this process on a free port, for {@code
 * bench console}. The server module provides it: benchmarks do not know how systems are wired.
 */
@FunctionalInterface
public interface ServerLauncher {
  /** A server started by {@link #start()}; {@link #close()} stops it. */
  interface Running extends AutoCloseable {
    int port();

    @Override
    void close();
  }

  Running start();
}
