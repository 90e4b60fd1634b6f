package org.casebook.frontier;

import crawlercommons.urlfrontier.URLFrontierGrpc;
import crawlercommons.urlfrontier.Urlfrontier.AckMessage;
import crawlercommons.urlfrontier.Urlfrontier.DiscoveredURLItem;
import crawlercommons.urlfrontier.Urlfrontier.GetParams;
import crawlercommons.urlfrontier.Urlfrontier.KnownURLItem;
import crawlercommons.urlfrontier.Urlfrontier.URLInfo;
import crawlercommons.urlfrontier.Urlfrontier.URLItem;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.casebook.core.HBaseRuntime;
import org.casebook.core.Platform;
import org.casebook.core.RunningSystem;
import org.casebook.core.SystemContext;
import org.casebook.core.SystemDescriptor;
import org.casebook.core.schema.SchemaManager;
import org.casebook.core.testing.EmbeddedHBase;
import org.casebook.frontier.wire.testing.PutStreams;

/**
 * The frontier system started as the server starts it (gRPC on port 0), and a URLFrontier client.
 */
final class FrontierFixture implements AutoCloseable {
  final Platform platform;
  final FrontierService service;
  final ManagedChannel channel;
  final URLFrontierGrpc.URLFrontierBlockingStub blocking;
  final URLFrontierGrpc.URLFrontierStub async;
  final int port;
  private final RunningSystem running;

  FrontierFixture(HBaseRuntime runtime) {
    this(runtime, Clock.systemUTC(), Map.of());
  }

  /**
   * The system on {@code clock}, with {@code settings} ({@code frontier.namespace} → its tables'
   * namespace …) set as by {@code --set}.
   */
  FrontierFixture(HBaseRuntime runtime, Clock clock, Map<String, String> settings) {
    FrontierSystem system = new FrontierSystem();
    SystemDescriptor descriptor = system.descriptor();
    platform =
        Platform.builder(runtime, EmbeddedHBase.dataDir())
            .clock(clock)
            .port("--frontier-port", 0)
            .build();
    SystemContext context = platform.contextFor(descriptor, settings);
    new SchemaManager(runtime.connection()).ensureAll(system.tables(context.settings()));
    running = context.own(system.start(context));
    port = platform.listeners(descriptor.name()).get(0).address().getPort();
    service = new FrontierService(context, context.settings().get(FrontierSystem.NAMESPACE));
    channel = ManagedChannelBuilder.forAddress("127.0.0.1", port).usePlaintext().build();
    blocking = URLFrontierGrpc.newBlockingStub(channel);
    async = URLFrontierGrpc.newStub(channel);
    if (running.routes().isEmpty()) {
      throw new IllegalStateException("no routes");
    }
  }

  static URLItem discovered(String crawl, String url, String key) {
    URLInfo.Builder info = URLInfo.newBuilder().setUrl(url).setCrawlID(crawl);
    if (key != null) {
      info.setKey(key);
    }
    return URLItem.newBuilder().setDiscovered(DiscoveredURLItem.newBuilder().setInfo(info)).build();
  }

  static URLItem known(String crawl, String url, String key, long refetchSeconds) {
    URLInfo.Builder info = URLInfo.newBuilder().setUrl(url).setCrawlID(crawl);
    if (key != null) {
      info.setKey(key);
    }
    return URLItem.newBuilder()
        .setKnown(KnownURLItem.newBuilder().setInfo(info).setRefetchableFromDate(refetchSeconds))
        .build();
  }

  /**
   * Counter writes of the served system's puts still being settled in the background (its health
   * says how many): the counters lag the rows until none is left.
   */
  int unsettledCounterWrites() {
    return ((Number) running.health().details().get("unsettledCounterWrites")).intValue();
  }

  /** PutURLs over gRPC: every acknowledgement, after the stream completed. */
  List<AckMessage> put(URLItem... items) {
    return PutStreams.putAll(async, items);
  }

  List<URLInfo> get(GetParams params) {
    List<URLInfo> out = new ArrayList<>();
    Iterator<URLInfo> it = blocking.getURLs(params);
    it.forEachRemaining(out::add);
    return out;
  }

  List<String> urls(GetParams params) {
    return get(params).stream().map(URLInfo::getUrl).toList();
  }

  @Override
  public void close() {
    try {
      channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      platform.close();
    }
  }
}
