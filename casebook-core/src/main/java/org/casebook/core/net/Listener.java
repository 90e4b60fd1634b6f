package org.casebook.core.net;

import java.net.InetSocketAddress;
import java.util.Optional;
import org.casebook.core.tls.ServerTls;

/** A listener that is running: where it listens, and how to stop it. */
public interface Listener extends AutoCloseable {
  ListenerSpec spec();

  /** The bound address (the real port when 0 was asked for). */
  InetSocketAddress address();

  /** Connections open now. */
  int openConnections();

  /** Stops accepting, closes open connections, waits briefly for their handlers. */
  @Override
  void close();

  /**
   * Opens a listener for a spec on an address the platform chose, serving TLS with {@code tls} when
   * present (every listener of a server, when the operator gave TLS material).
   */
  @FunctionalInterface
  interface Factory {
    Listener open(ListenerSpec spec, InetSocketAddress address, Optional<ServerTls> tls)
        throws java.io.IOException;
  }
}
