package org.casebook.frontier.wire;

import io.grpc.Attributes;
import io.grpc.BindableService;
import io.grpc.Metadata;
import io.grpc.Server;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.ServerInterceptors;
import io.grpc.ServerMethodDefinition;
import io.grpc.ServerServiceDefinition;
import io.grpc.ServerTransportFilter;
import io.grpc.netty.shaded.io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.netty.shaded.io.netty.handler.ssl.SslContext;
import io.grpc.netty.shaded.io.netty.handler.ssl.SslContextBuilder;
import io.grpc.netty.shaded.io.netty.handler.ssl.SslProvider;
import io.grpc.netty.shaded.io.netty.handler.ssl.SupportedCipherSuiteFilter;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLException;
import org.casebook.core.net.Listener;
import org.casebook.core.net.ListenerSpec;
import org.casebook.core.tls.ServerTls;

/**
 * A gRPC server as a platform {@link Listener}: opened on the address the platform chose, over TLS
 * when the platform serves TLS.
 */
final class GrpcListener implements Listener {
  /** How long open calls may finish at close before they are cancelled. */
  private static final long GRACE_SECONDS = 5;

  /** Largest message accepted (a PutURLs item or a request). */
  private static final int MAX_MESSAGE_BYTES = 4 * 1024 * 1024;

  private final ListenerSpec spec;
  private final Server server;
  private final AtomicInteger connections;

  private GrpcListener(ListenerSpec spec, Server server, AtomicInteger connections) {
    this.spec = spec;
    this.server = server;
    this.connections = connections;
  }

  /** Calls received, tagged with the RPC's name. */
  static final String CALLS = "casebook.frontier.grpc.calls";

  /**
   * A factory serving {@code service}, its calls counted per method in {@code meters} and checked
   * (and audited) through {@code access}.
   */
  static Listener.Factory factory(
      BindableService service, MeterRegistry meters, org.casebook.core.access.AccessGate access) {
    Objects.requireNonNull(service, "service is null");
    ServerServiceDefinition counted =
        ServerInterceptors.intercept(
            counted(service.bindService(), meters), new GrpcAccess(access));
    return (spec, address, tls) -> open(spec, address, counted, tls);
  }

  /**
   * {@code service} with a counter per method, made up front from the service definition: the
   * method names are the tags, so their number is the protocol's.
   */
  private static ServerServiceDefinition counted(
      ServerServiceDefinition service, MeterRegistry meters) {
    Map<String, Counter> calls = new HashMap<>();
    for (ServerMethodDefinition<?, ?> m : service.getMethods()) {
      String name = m.getMethodDescriptor().getFullMethodName();
      calls.put(
          name,
          Counter.builder(CALLS)
              .description("URLFrontier gRPC calls received (a stream counts once)")
              .tag("method", m.getMethodDescriptor().getBareMethodName())
              .register(meters));
    }
    ServerInterceptor counting =
        new ServerInterceptor() {
          @Override
          public <Q, A> ServerCall.Listener<Q> interceptCall(
              ServerCall<Q, A> call, Metadata headers, ServerCallHandler<Q, A> next) {
            Counter c = calls.get(call.getMethodDescriptor().getFullMethodName());
            if (c != null) {
              c.increment();
            }
            return next.startCall(call, headers);
          }
        };
    return ServerInterceptors.intercept(service, counting);
  }

  private static Listener open(
      ListenerSpec spec,
      InetSocketAddress address,
      ServerServiceDefinition service,
      Optional<ServerTls> tls)
      throws IOException {
    AtomicInteger connections = new AtomicInteger();
    NettyServerBuilder builder = NettyServerBuilder.forAddress(address);
    if (tls.isPresent()) {
      builder.sslContext(sslContext(tls.get()));
    }
    Server server =
        builder
            .addService(service)
            .maxInboundMessageSize(MAX_MESSAGE_BYTES)
            .addTransportFilter(
                new ServerTransportFilter() {
                  @Override
                  public Attributes transportReady(Attributes attributes) {
                    connections.incrementAndGet();
                    return attributes;
                  }

                  @Override
                  public void transportTerminated(Attributes attributes) {
                    connections.decrementAndGet();
                  }
                })
            .build();
    try {
      server.start();
    } catch (IOException e) {
      server.shutdownNow();
      throw e;
    }
    return new GrpcListener(spec, server, connections);
  }

  /**
   * gRPC's HTTP/2 TLS set-up over the server's rotating key manager; the JDK's TLS, so each
   * handshake asks the key manager (and a rotated certificate reaches new connections).
   */
  private static SslContext sslContext(ServerTls tls) throws SSLException {
    return GrpcSslContexts.configure(SslContextBuilder.forServer(tls.keyManager()), SslProvider.JDK)
        .protocols(ServerTls.PROTOCOLS)
        .ciphers(ServerTls.CIPHER_SUITES, SupportedCipherSuiteFilter.INSTANCE)
        .build();
  }

  @Override
  public ListenerSpec spec() {
    return spec;
  }

  @Override
  public InetSocketAddress address() {
    return (InetSocketAddress) server.getListenSockets().get(0);
  }

  @Override
  public int openConnections() {
    return Math.max(0, connections.get());
  }

  @Override
  public void close() {
    server.shutdown();
    try {
      if (!server.awaitTermination(GRACE_SECONDS, TimeUnit.SECONDS)) {
        server.shutdownNow().awaitTermination(GRACE_SECONDS, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      server.shutdownNow();
      Thread.currentThread().interrupt();
    }
  }
}
