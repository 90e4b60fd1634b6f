package org.casebook.core.http;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslProvider;
import io.netty.handler.ssl.SupportedCipherSuiteFilter;
import io.netty.handler.timeout.IdleState;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.handler.timeout.IdleStateHandler;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.ScheduledFuture;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import javax.net.ssl.SSLException;
import org.casebook.core.AccessRule;
import org.casebook.core.ErrorKind;
import org.casebook.core.InvalidInputException;
import org.casebook.core.Threads;
import org.casebook.core.tls.ServerTls;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP front door, on Netty: reading requests never ties up a worker thread, so slow or stalled
 * clients cost a socket, not the service. Limits: request line 8 KiB (414), headers 16 KiB (431),
 * body 4 MiB (413), a whole request within {@link Limits#requestTimeout} of its first byte (408),
 * an idle keep-alive connection closed after {@link Limits#idleTimeout}, at most {@link
 * Limits#maxConnections} connections (503 to the next). TCP_NODELAY. Every answer, including a
 * malformed request's, is JSON mapped through {@link ErrorKind}. Handlers run on a bounded worker
 * pool; writes need the access rule's token. Metrics are labelled only by known methods and route
 * templates. With TLS (from {@link ServerTls}) every connection is encrypted; the certificate is
 * the one current at its handshake.
 */
public final class HttpApiServer implements HttpRoutes, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(HttpApiServer.class);
  private static final int MAX_PIPELINED = 8;

  /** How long a client has to finish the TLS handshake. */
  public static final Duration HANDSHAKE_TIMEOUT = Duration.ofSeconds(10);

  private static final Set<String> KNOWN_METHODS =
      Set.of("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS");

  /** The server's limits. */
  public record Limits(
      int maxConnections,
      Duration requestTimeout,
      Duration idleTimeout,
      int maxRequestLineBytes,
      int maxHeaderBytes,
      int maxBodyBytes) {
    public Limits {
      Objects.requireNonNull(requestTimeout, "requestTimeout is null");
      Objects.requireNonNull(idleTimeout, "idleTimeout is null");
      if (maxConnections < 1
          || maxRequestLineBytes < 256
          || maxHeaderBytes < 1024
          || maxBodyBytes < 1) {
        throw new IllegalArgumentException("limits too small");
      }
    }

    public static Limits defaults() {
      return new Limits(
          512,
          Duration.ofSeconds(10),
          Duration.ofSeconds(60),
          8 * 1024,
          16 * 1024,
          4 * 1024 * 1024);
    }
  }

  private final RouteDispatcher routes;
  private final MeterRegistry metrics;
  private final Limits limits;
  private final EventLoopGroup boss = new NioEventLoopGroup(1, Threads.daemon("http-accept"));
  private final EventLoopGroup ioGroup = new NioEventLoopGroup(2, Threads.daemon("http-io"));
  private final ThreadPoolExecutor workers;
  private final AtomicInteger connections = new AtomicInteger();
  private final Map<String, Timer> timers = new ConcurrentHashMap<>();
  private final Channel channel;
  private final boolean tls;
  private volatile Supplier<String> metricsText = () -> "";

  public HttpApiServer(
      String bindAddress, int port, AccessRule access, int threads, MeterRegistry metrics) {
    this(bindAddress, port, access, threads, metrics, Limits.defaults(), Optional.empty());
  }

  public HttpApiServer(
      String bindAddress,
      int port,
      AccessRule access,
      int threads,
      MeterRegistry metrics,
      Limits limits) {
    this(bindAddress, port, access, threads, metrics, limits, Optional.empty());
  }

  /**
   * Binds now (a busy port is a 400 naming {@code port}); handlers run once {@link #start()} is
   * called. With {@code tls}, every connection starts with a TLS handshake (within {@link
   * #HANDSHAKE_TIMEOUT}); a client speaking plain HTTP is closed without an answer.
   */
  public HttpApiServer(
      String bindAddress,
      int port,
      AccessRule access,
      int threads,
      MeterRegistry metrics,
      Limits limits,
      Optional<ServerTls> tls) {
    SslContext ssl = tls.map(HttpApiServer::sslContext).orElse(null);
    this.tls = ssl != null;
    this.metrics = Objects.requireNonNull(metrics, "metrics is null");
    this.routes = new RouteDispatcher(access, metrics, java.time.Clock.systemUTC());
    this.limits = Objects.requireNonNull(limits, "limits is null");
    this.workers =
        new ThreadPoolExecutor(
            threads,
            threads,
            60,
            TimeUnit.SECONDS,
            new LinkedBlockingQueue<>(1024),
            Threads.daemon("http-worker"));
    workers.prestartAllCoreThreads();
    ServerBootstrap b =
        new ServerBootstrap()
            .group(boss, ioGroup)
            .channel(NioServerSocketChannel.class)
            .option(ChannelOption.SO_BACKLOG, 256)
            .option(ChannelOption.SO_REUSEADDR, true)
            .childOption(ChannelOption.TCP_NODELAY, true)
            .childHandler(
                new ChannelInitializer<SocketChannel>() {
                  @Override
                  protected void initChannel(SocketChannel ch) {
                    ChannelPipeline p = ch.pipeline();
                    if (ssl != null) {
                      SslHandler handler = ssl.newHandler(ch.alloc());
                      handler.setHandshakeTimeout(
                          HANDSHAKE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
                      p.addLast(handler);
                    }
                    p.addLast(
                        new IdleStateHandler(
                            0, 0, limits.idleTimeout().toMillis(), TimeUnit.MILLISECONDS));
                    RequestClock clock = new RequestClock();
                    p.addLast(clock.onBytes());
                    p.addLast(
                        new HttpServerCodec(
                            limits.maxRequestLineBytes(), limits.maxHeaderBytes(), 64 * 1024));
                    p.addLast(clock.onMessages());
                    p.addLast(new Aggregator(limits.maxBodyBytes()));
                    p.addLast(new Dispatcher());
                  }
                });
    try {
      this.channel =
          b.bind(new InetSocketAddress(bindAddress, port)).syncUninterruptibly().channel();
    } catch (RuntimeException e) {
      shutdownGroups();
      throw new InvalidInputException(
          "port", "cannot listen on " + bindAddress + ":" + port + ": " + e.getMessage());
    }
    get(
        "/metrics",
        req ->
            HttpResponse.text(200, "text/plain; version=0.0.4; charset=utf-8", metricsText.get()));
  }

  /** Netty's context over the rotating key manager: one per server, each handshake asks it. */
  private static SslContext sslContext(ServerTls tls) {
    try {
      return SslContextBuilder.forServer(tls.keyManager())
          .sslProvider(SslProvider.JDK)
          .protocols(ServerTls.PROTOCOLS)
          .ciphers(ServerTls.CIPHER_SUITES, SupportedCipherSuiteFilter.INSTANCE)
          .build();
    } catch (SSLException e) {
      throw new IllegalStateException("cannot set up TLS for HTTP: " + e.getMessage(), e);
    }
  }

  /** True when connections speak TLS. */
  public boolean tls() {
    return tls;
  }

  /** Where changes made through this server are recorded (none until set). */
  public void audit(org.casebook.core.access.AuditLog log) {
    routes.audit(log);
  }

  /** What {@code /metrics} answers (Prometheus text). */
  public void setMetricsText(Supplier<String> supplier) {
    this.metricsText = Objects.requireNonNull(supplier, "supplier is null");
  }

  private volatile boolean started;

  /** Requests that arrive before this are answered 503. */
  public void start() {
    started = true;
  }

  public int port() {
    return ((InetSocketAddress) channel.localAddress()).getPort();
  }

  /** Connections open now. */
  public int openConnections() {
    return connections.get();
  }

  @Override
  public void add(Route route) {
    routes.add(route);
  }

  /** Every route served, in the order added (the API description checks itself against this). */
  public List<RouteSpec> routes() {
    return routes.specs();
  }

  /** Counts connections; past the cap, the newcomer gets a 503 and is closed. */
  private final class Dispatcher extends SimpleChannelInboundHandler<FullHttpRequest> {
    /**
     * Requests of one connection run one after another, answered in order (HTTP/1.1 pipelining).
     */
    private CompletableFuture<Void> tail = CompletableFuture.completedFuture(null);

    private final AtomicInteger inFlight = new AtomicInteger();
    private boolean counted;

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
      if (connections.incrementAndGet() > limits.maxConnections()) {
        connections.decrementAndGet();
        writeAndClose(
            ctx,
            HttpResponse.error(
                503, "too many connections (at most " + limits.maxConnections() + ")", null));
        return;
      }
      counted = true;
      super.channelActive(ctx);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
      if (counted) {
        connections.decrementAndGet();
        counted = false;
      }
      super.channelInactive(ctx);
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
      String method = request.method().name();
      String uri = request.uri();
      Map<String, String> headers = new HashMap<>();
      request
          .headers()
          .forEach(e -> headers.putIfAbsent(e.getKey().toLowerCase(Locale.ROOT), e.getValue()));
      byte[] body = ByteBufUtil.getBytes(request.content());
      boolean keepAlive = HttpUtil.isKeepAlive(request);
      if (inFlight.incrementAndGet() > MAX_PIPELINED) {
        // A client that pipelines faster than we answer waits for us: stop reading its socket.
        ctx.channel().config().setAutoRead(false);
      }
      CompletableFuture<Void> next =
          tail.handleAsync(
              (previous, failure) -> {
                long t0 = System.nanoTime();
                String[] routeLabel = {"unmatched"};
                HttpResponse response =
                    started
                        ? routes.dispatch(method, uri, headers, body, remote(ctx), routeLabel)
                        : HttpResponse.error(503, "starting up", null);
                write(ctx, response, method.equals("HEAD"), keepAlive);
                timer(
                        KNOWN_METHODS.contains(method) ? method : "other",
                        routeLabel[0],
                        response.status())
                    .record(Duration.ofNanos(System.nanoTime() - t0));
                return null;
              },
              workers);
      next.whenComplete(
          (v, failure) -> {
            if (inFlight.decrementAndGet() <= MAX_PIPELINED) {
              ctx.channel().config().setAutoRead(true);
            }
            if (failure != null) {
              // The worker queue is full (RejectedExecutionException): say so and hang up.
              writeAndClose(ctx, HttpResponse.error(503, "server busy; retry later", null));
            }
          });
      tail = next;
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
      if (evt instanceof IdleStateEvent e && e.state() == IdleState.ALL_IDLE) {
        if (inFlight.get() == 0) { // a slow handler is not an idle client
          closeQuietly(ctx);
        }
        return;
      }
      super.userEventTriggered(ctx, evt);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      LOG.debug("HTTP connection {} failed: {}", ctx.channel().remoteAddress(), cause.toString());
      closeQuietly(ctx);
    }
  }

  /** The client's address and port, as the audit trail records it. */
  private static String remote(ChannelHandlerContext ctx) {
    if (ctx.channel().remoteAddress() instanceof java.net.InetSocketAddress a) {
      return (a.getAddress() == null ? a.getHostString() : a.getAddress().getHostAddress())
          + ":"
          + a.getPort();
    }
    return String.valueOf(ctx.channel().remoteAddress());
  }

  /**
   * A request must arrive whole within the request timeout of its first byte, however slowly it
   * trickles: the clock starts on the first bytes of a request (before they are decoded) or on a
   * pipelined request's head, and stops at the request's last content.
   */
  private final class RequestClock {
    private ScheduledFuture<?> deadline;

    private void start(ChannelHandlerContext ctx) {
      if (deadline != null) {
        return;
      }
      deadline =
          ctx.executor()
              .schedule(
                  () ->
                      writeAndClose(
                          ctx,
                          HttpResponse.error(
                              408,
                              "request not received within "
                                  + limits.requestTimeout().toSeconds()
                                  + " s",
                              null)),
                  limits.requestTimeout().toMillis(),
                  TimeUnit.MILLISECONDS);
    }

    private void stop() {
      if (deadline != null) {
        deadline.cancel(false);
        deadline = null;
      }
    }

    ChannelInboundHandlerAdapter onBytes() {
      return new ChannelInboundHandlerAdapter() {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
          start(ctx);
          super.channelRead(ctx, msg);
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) throws Exception {
          stop();
          super.channelInactive(ctx);
        }
      };
    }

    ChannelInboundHandlerAdapter onMessages() {
      return new ChannelInboundHandlerAdapter() {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
          if (msg instanceof HttpRequest) {
            start(ctx);
          }
          if (msg instanceof LastHttpContent) {
            stop();
          }
          super.channelRead(ctx, msg);
        }
      };
    }
  }

  /** HttpObjectAggregator answering an oversized body with a JSON 413. */
  private final class Aggregator extends HttpObjectAggregator {
    Aggregator(int maxBytes) {
      super(maxBytes, true);
    }

    @Override
    protected void handleOversizedMessage(ChannelHandlerContext ctx, HttpMessage oversized) {
      writeAndClose(
          ctx,
          HttpResponse.error(
              413, "request body larger than " + limits.maxBodyBytes() + " bytes", "body"));
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
      if (msg instanceof HttpObject o && o.decoderResult().isFailure()) {
        ReferenceCountUtil.release(msg);
        writeAndClose(ctx, badRequest(o.decoderResult().cause()));
        return;
      }
      if (msg instanceof HttpContent
          && !(msg instanceof HttpMessage)
          && !ctx.channel().isActive()) {
        ReferenceCountUtil.release(msg);
        return;
      }
      super.channelRead(ctx, msg);
    }
  }

  private static HttpResponse badRequest(Throwable cause) {
    if (cause instanceof TooLongHttpLineException) {
      return HttpResponse.error(414, "request line too long", null);
    }
    if (cause instanceof TooLongHttpHeaderException) {
      return HttpResponse.error(431, "request headers too large", null);
    }
    if (cause instanceof TooLongFrameException) {
      return HttpResponse.error(431, "request too large: " + cause.getMessage(), null);
    }
    return HttpResponse.error(400, "malformed HTTP request: " + cause.getMessage(), null);
  }

  private Timer timer(String method, String route, int status) {
    String key = method + ' ' + route + ' ' + status;
    return timers.computeIfAbsent(
        key,
        k ->
            Timer.builder("casebook.http.requests")
                .description("HTTP requests by method, route template and status")
                .tags("method", method, "route", route, "status", Integer.toString(status))
                .publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofMillis(1))
                .maximumExpectedValue(Duration.ofSeconds(10))
                .register(metrics));
  }

  private static FullHttpResponse toNetty(HttpResponse response, boolean head) {
    byte[] body = response.bodyBytes();
    FullHttpResponse r =
        new DefaultFullHttpResponse(
            HttpVersion.HTTP_1_1,
            HttpResponseStatus.valueOf(response.status()),
            head || response.status() == 204
                ? Unpooled.EMPTY_BUFFER
                : Unpooled.wrappedBuffer(body));
    if (response.status() != 204) {
      r.headers().set(HttpHeaderNames.CONTENT_TYPE, response.contentType());
      r.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, body.length);
    }
    response.headers().forEach((k, v) -> r.headers().set(k, v));
    // Every 503 and 507, whoever built it, says when to try again.
    if ((response.status() == 503 || response.status() == 507)
        && !r.headers().contains(HttpHeaderNames.RETRY_AFTER)) {
      r.headers().setInt(HttpHeaderNames.RETRY_AFTER, HttpResponse.RETRY_AFTER_SECONDS);
    }
    return r;
  }

  private static void write(
      ChannelHandlerContext ctx, HttpResponse response, boolean head, boolean keepAlive) {
    FullHttpResponse r = toNetty(response, head);
    if (keepAlive) {
      r.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
      ctx.writeAndFlush(r).addListener(ChannelFutureListener.CLOSE_ON_FAILURE);
    } else {
      r.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
      ctx.writeAndFlush(r).addListener(ChannelFutureListener.CLOSE);
    }
  }

  private static void writeAndClose(ChannelHandlerContext ctx, HttpResponse response) {
    if (!ctx.channel().isActive()) {
      return;
    }
    FullHttpResponse r = toNetty(response, false);
    r.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
    ctx.writeAndFlush(r).addListener(ChannelFutureListener.CLOSE);
  }

  /** Closing a connection that failed or idled: nothing to report if that fails too. */
  private static void closeQuietly(ChannelHandlerContext ctx) {
    ctx.close()
        .addListener(
            f -> {
              if (!f.isSuccess()) {
                LOG.debug(
                    "closing {} failed: {}", ctx.channel().remoteAddress(), f.cause().toString());
              }
            });
  }

  /** Stops accepting, lets running handlers finish (up to 5 s), closes every connection. */
  @Override
  public void close() {
    channel.close().syncUninterruptibly();
    Threads.shutdown(workers, Duration.ofSeconds(5));
    shutdownGroups();
  }

  private void shutdownGroups() {
    boss.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
    ioGroup.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
  }
}
