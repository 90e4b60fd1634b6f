package org.casebook.core.net;

import java.io.IOException;
import java.net.InetSocketAddress;

/**
 * A text protocol of one request per line (OpenTSDB's telnet {@code put}, say), served by {@link
 * LineServer}: one session per connection.
 */
@FunctionalInterface
public interface LineProtocol {
  Session open(InetSocketAddress remote);

  /** One connection's state. Calls come from one thread at a time. */
  interface Session extends AutoCloseable {
    /**
     * Handles one line (without its terminator); writes any reply to {@code out}. False closes the
     * connection.
     */
    boolean line(String line, Replies out) throws IOException;

    /**
     * Called when no more input is buffered, before the server waits for more: pipelined lines can
     * be handled as one batch, and their replies flushed, here.
     */
    default void drained(Replies out) throws IOException {}

    @Override
    default void close() {}
  }

  /** Where a session writes reply lines; flushed after {@link Session#drained}. */
  interface Replies {
    void line(String text) throws IOException;
  }
}
