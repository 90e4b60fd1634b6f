package org.casebook.core.net;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLSocket;
import org.casebook.core.Threads;
import org.casebook.core.tls.ServerTls;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A TCP server for a {@link LineProtocol}: a thread per connection (collectors keep a few
 * long-lived connections), at most {@code maxConnections} at once (more are told so and closed), an
 * idle timeout, a maximum line length (a longer line gets an error reply, the rest of it is skipped
 * and the connection stays open), TCP_NODELAY. With TLS, the handshake must finish within {@link
 * #HANDSHAKE_TIMEOUT_MILLIS}, and a connection over the cap is closed without a word (writing one
 * would make the acceptor wait on that client's handshake).
 */
public final class LineServer implements Listener {
  private static final Logger LOG = LoggerFactory.getLogger(LineServer.class);

  /** How long a TLS client has to finish its handshake, however long the idle timeout is. */
  static final int HANDSHAKE_TIMEOUT_MILLIS = 10_000;

  /** Limits of one server. */
  public record Limits(int maxConnections, int idleTimeoutMillis, int maxLineBytes) {
    public Limits {
      if (maxConnections < 1 || idleTimeoutMillis < 1 || maxLineBytes < 16) {
        throw new IllegalArgumentException("limits must be positive");
      }
    }

    public static Limits defaults() {
      return new Limits(64, 600_000, 64 * 1024);
    }
  }

  private final ListenerSpec spec;
  private final LineProtocol protocol;
  private final Limits limits;
  private final ServerSocket server;
  private final boolean tls;
  private final ExecutorService workers;
  private final Set<Socket> open = ConcurrentHashMap.newKeySet();
  private final Thread acceptor;
  private volatile boolean closed;

  private LineServer(
      ListenerSpec spec,
      InetSocketAddress address,
      LineProtocol protocol,
      Limits limits,
      Optional<ServerTls> tls)
      throws IOException {
    this.spec = spec;
    this.protocol = protocol;
    this.limits = limits;
    this.tls = tls.isPresent();
    this.server = tls.isPresent() ? tls.get().serverSocket() : new ServerSocket();
    server.setReuseAddress(true);
    server.bind(address, 128);
    this.workers =
        Executors.newFixedThreadPool(
            limits.maxConnections(), Threads.daemon(spec.name() + "-conn"));
    this.acceptor = Threads.daemon(spec.name() + "-accept").newThread(this::acceptLoop);
    acceptor.start();
  }

  /** A {@link Listener.Factory} serving {@code protocol}. */
  public static Listener.Factory factory(LineProtocol protocol, Limits limits) {
    Objects.requireNonNull(protocol, "protocol is null");
    Objects.requireNonNull(limits, "limits is null");
    return (spec, address, tls) -> new LineServer(spec, address, protocol, limits, tls);
  }

  private void acceptLoop() {
    while (!closed) {
      Socket s;
      try {
        s = server.accept();
      } catch (IOException e) {
        if (!closed) {
          LOG.warn("{}: accept failed: {}", spec.name(), e.getMessage());
          pause(); // out of file descriptors, say: do not spin
        }
        continue;
      }
      if (open.size() >= limits.maxConnections()) {
        refuse(s);
        continue;
      }
      open.add(s);
      try {
        workers.execute(() -> serve(s));
      } catch (java.util.concurrent.RejectedExecutionException closing) {
        open.remove(s);
        refuse(s);
      }
    }
  }

  private static void pause() {
    try {
      Thread.sleep(100);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void refuse(Socket s) {
    try (s) {
      if (tls) {
        return;
      }
      s.getOutputStream()
          .write(
              ("error: too many connections (at most " + limits.maxConnections() + ")\n")
                  .getBytes(StandardCharsets.UTF_8));
    } catch (IOException e) {
      LOG.debug(
          "{}: could not refuse {}: {}", spec.name(), s.getRemoteSocketAddress(), e.getMessage());
    }
  }

  private void serve(Socket socket) {
    InetSocketAddress remote = (InetSocketAddress) socket.getRemoteSocketAddress();
    try (socket;
        LineProtocol.Session session = protocol.open(remote)) {
      socket.setTcpNoDelay(true);
      if (socket instanceof SSLSocket secure) {
        socket.setSoTimeout(Math.min(HANDSHAKE_TIMEOUT_MILLIS, limits.idleTimeoutMillis()));
        secure.startHandshake();
      }
      socket.setSoTimeout(limits.idleTimeoutMillis());
      InputStream in = new BufferedInputStream(socket.getInputStream(), 64 * 1024);
      OutputStream out = new BufferedOutputStream(socket.getOutputStream(), 16 * 1024);
      LineProtocol.Replies replies =
          text -> out.write((text + "\n").getBytes(StandardCharsets.UTF_8));
      LineReader reader = new LineReader(in, limits.maxLineBytes());
      while (!closed) {
        if (!reader.buffered() && in.available() == 0) {
          session.drained(replies);
          out.flush();
        }
        LineReader.Line line = reader.next();
        if (line == null) {
          session.drained(replies);
          out.flush();
          return;
        }
        if (line.tooLong()) {
          replies.line("error: line longer than " + limits.maxLineBytes() + " bytes");
          continue;
        }
        if (line.text() == null) {
          replies.line("error: line is not valid UTF-8");
          continue;
        }
        if (!session.line(line.text(), replies)) {
          session.drained(replies);
          out.flush();
          return;
        }
      }
    } catch (SocketTimeoutException e) {
      LOG.debug("{}: {} idle for {} ms, closed", spec.name(), remote, limits.idleTimeoutMillis());
    } catch (SocketException e) {
      LOG.debug("{}: {} closed: {}", spec.name(), remote, e.getMessage());
    } catch (SSLException e) {
      LOG.debug("{}: TLS with {} failed: {}", spec.name(), remote, e.getMessage());
    } catch (IOException | RuntimeException e) {
      LOG.warn("{}: connection from {} failed: {}", spec.name(), remote, e.toString());
    } finally {
      open.remove(socket);
    }
  }

  @Override
  public ListenerSpec spec() {
    return spec;
  }

  @Override
  public InetSocketAddress address() {
    return (InetSocketAddress) server.getLocalSocketAddress();
  }

  @Override
  public int openConnections() {
    return open.size();
  }

  @Override
  public void close() {
    closed = true;
    try {
      server.close();
    } catch (IOException e) {
      LOG.warn("{}: closing the server socket failed: {}", spec.name(), e.getMessage());
    }
    for (Socket s : open) {
      try {
        s.close();
      } catch (IOException e) {
        LOG.debug(
            "{}: closing {} failed: {}", spec.name(), s.getRemoteSocketAddress(), e.getMessage());
      }
    }
    Threads.shutdown(workers, java.time.Duration.ofSeconds(5));
    try {
      acceptor.join(5000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
