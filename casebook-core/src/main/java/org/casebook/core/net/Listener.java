package org.casebook.core.net;

import java.net.InetSocketAddress;

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

  /** Opens a listener for a spec on an address the platform chose. */
  @FunctionalInterface
  interface Factory {
    Listener open(ListenerSpec spec, InetSocketAddress address) throws java.io.IOException;
  }
}
