package crawlercommons.urlfrontier;

import com.google.protobuf.Descriptors;
import com.google.protobuf.Message;
import crawlercommons.urlfrontier.Urlfrontier.AckMessage;
import crawlercommons.urlfrontier.Urlfrontier.Active;
import crawlercommons.urlfrontier.Urlfrontier.BatchAck;
import crawlercommons.urlfrontier.Urlfrontier.BlockQueueParams;
import crawlercommons.urlfrontier.Urlfrontier.CountUrlParams;
import crawlercommons.urlfrontier.Urlfrontier.CrawlLimitParams;
import crawlercommons.urlfrontier.Urlfrontier.DeleteCrawlMessage;
import crawlercommons.urlfrontier.Urlfrontier.DiscoveredBatch;
import crawlercommons.urlfrontier.Urlfrontier.Empty;
import crawlercommons.urlfrontier.Urlfrontier.GetParams;
import crawlercommons.urlfrontier.Urlfrontier.ListUrlParams;
import crawlercommons.urlfrontier.Urlfrontier.Local;
import crawlercommons.urlfrontier.Urlfrontier.LogLevelParams;
import crawlercommons.urlfrontier.Urlfrontier.Pagination;
import crawlercommons.urlfrontier.Urlfrontier.PurgeUrlParams;
import crawlercommons.urlfrontier.Urlfrontier.QueueDelayParams;
import crawlercommons.urlfrontier.Urlfrontier.QueueList;
import crawlercommons.urlfrontier.Urlfrontier.QueueWithinCrawlParams;
import crawlercommons.urlfrontier.Urlfrontier.Stats;
import crawlercommons.urlfrontier.Urlfrontier.StringList;
import crawlercommons.urlfrontier.Urlfrontier.URLInfo;
import crawlercommons.urlfrontier.Urlfrontier.URLItem;
import crawlercommons.urlfrontier.Urlfrontier.URLStatusRequest;
import io.grpc.BindableService;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.MethodDescriptor;
import io.grpc.ServerServiceDefinition;
import io.grpc.protobuf.ProtoUtils;
import io.grpc.stub.AbstractAsyncStub;
import io.grpc.stub.AbstractBlockingStub;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.ServerCalls;
import io.grpc.stub.StreamObserver;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;

/**
 * URLFrontier's gRPC service (server base and client stubs) over the messages protoc generates from
 * {@code urlfrontier.proto}, under the class and method names gRPC's code generator gives them, so
 * code written for upstream's API jar compiles unchanged. gRPC's generator is not served for this
 * build (see the module's pom): each method's name, kind and types are read from the generated
 * descriptor and checked against the Java types here when the class loads, so the two cannot drift
 * apart.
 */
public final class URLFrontierGrpc {
  public static final String SERVICE_NAME = "urlfrontier.URLFrontier";

  private static final Descriptors.ServiceDescriptor SERVICE =
      Urlfrontier.getDescriptor().findServiceByName("URLFrontier");

  private static final List<MethodDescriptor<?, ?>> METHODS = new ArrayList<>();

  public static final MethodDescriptor<Empty, StringList> LIST_NODES =
      method("ListNodes", Empty.getDefaultInstance(), StringList.getDefaultInstance());
  public static final MethodDescriptor<Local, StringList> LIST_CRAWLS =
      method("ListCrawls", Local.getDefaultInstance(), StringList.getDefaultInstance());
  public static final MethodDescriptor<DeleteCrawlMessage, Urlfrontier.Long> DELETE_CRAWL =
      method(
          "DeleteCrawl",
          DeleteCrawlMessage.getDefaultInstance(),
          Urlfrontier.Long.getDefaultInstance());
  public static final MethodDescriptor<Pagination, QueueList> LIST_QUEUES =
      method("ListQueues", Pagination.getDefaultInstance(), QueueList.getDefaultInstance());
  public static final MethodDescriptor<GetParams, URLInfo> GET_URLS =
      method("GetURLs", GetParams.getDefaultInstance(), URLInfo.getDefaultInstance());
  public static final MethodDescriptor<URLItem, AckMessage> PUT_URLS =
      method("PutURLs", URLItem.getDefaultInstance(), AckMessage.getDefaultInstance());
  public static final MethodDescriptor<DiscoveredBatch, BatchAck> PUT_DISCOVERED =
      method("PutDiscovered", DiscoveredBatch.getDefaultInstance(), BatchAck.getDefaultInstance());
  public static final MethodDescriptor<QueueWithinCrawlParams, Stats> GET_STATS =
      method("GetStats", QueueWithinCrawlParams.getDefaultInstance(), Stats.getDefaultInstance());
  public static final MethodDescriptor<QueueWithinCrawlParams, Urlfrontier.Long> DELETE_QUEUE =
      method(
          "DeleteQueue",
          QueueWithinCrawlParams.getDefaultInstance(),
          Urlfrontier.Long.getDefaultInstance());
  public static final MethodDescriptor<BlockQueueParams, Empty> BLOCK_QUEUE_UNTIL =
      method("BlockQueueUntil", BlockQueueParams.getDefaultInstance(), Empty.getDefaultInstance());
  public static final MethodDescriptor<Active, Empty> SET_ACTIVE =
      method("SetActive", Active.getDefaultInstance(), Empty.getDefaultInstance());
  public static final MethodDescriptor<Local, Urlfrontier.Boolean> GET_ACTIVE =
      method("GetActive", Local.getDefaultInstance(), Urlfrontier.Boolean.getDefaultInstance());
  public static final MethodDescriptor<QueueDelayParams, Empty> SET_DELAY =
      method("SetDelay", QueueDelayParams.getDefaultInstance(), Empty.getDefaultInstance());
  public static final MethodDescriptor<LogLevelParams, Empty> SET_LOG_LEVEL =
      method("SetLogLevel", LogLevelParams.getDefaultInstance(), Empty.getDefaultInstance());
  public static final MethodDescriptor<CrawlLimitParams, Empty> SET_CRAWL_LIMIT =
      method("SetCrawlLimit", CrawlLimitParams.getDefaultInstance(), Empty.getDefaultInstance());
  public static final MethodDescriptor<URLStatusRequest, URLItem> GET_URL_STATUS =
      method("GetURLStatus", URLStatusRequest.getDefaultInstance(), URLItem.getDefaultInstance());
  public static final MethodDescriptor<ListUrlParams, URLItem> LIST_URLS =
      method("ListURLs", ListUrlParams.getDefaultInstance(), URLItem.getDefaultInstance());
  public static final MethodDescriptor<CountUrlParams, Urlfrontier.Long> COUNT_URLS =
      method(
          "CountURLs", CountUrlParams.getDefaultInstance(), Urlfrontier.Long.getDefaultInstance());
  public static final MethodDescriptor<PurgeUrlParams, Urlfrontier.Long> PURGE_URLS =
      method(
          "PurgeURLs", PurgeUrlParams.getDefaultInstance(), Urlfrontier.Long.getDefaultInstance());

  static {
    if (METHODS.size() != SERVICE.getMethods().size()) {
      throw new IllegalStateException(
          "urlfrontier.proto declares "
              + SERVICE.getMethods().size()
              + " methods, URLFrontierGrpc binds "
              + METHODS.size());
    }
  }

  private URLFrontierGrpc() {}

  /** The descriptor of one method, its kind and types as urlfrontier.proto declares them. */
  private static <Q extends Message, R extends Message> MethodDescriptor<Q, R> method(
      String name, Q request, R response) {
    Descriptors.MethodDescriptor m = SERVICE.findMethodByName(name);
    if (m == null
        || !m.getInputType().equals(request.getDescriptorForType())
        || !m.getOutputType().equals(response.getDescriptorForType())) {
      throw new IllegalStateException(
          "urlfrontier.proto has no method " + name + " of these types");
    }
    MethodDescriptor.MethodType type;
    if (m.isClientStreaming()) {
      type =
          m.isServerStreaming()
              ? MethodDescriptor.MethodType.BIDI_STREAMING
              : MethodDescriptor.MethodType.CLIENT_STREAMING;
    } else {
      type =
          m.isServerStreaming()
              ? MethodDescriptor.MethodType.SERVER_STREAMING
              : MethodDescriptor.MethodType.UNARY;
    }
    MethodDescriptor<Q, R> d =
        MethodDescriptor.<Q, R>newBuilder()
            .setType(type)
            .setFullMethodName(MethodDescriptor.generateFullMethodName(SERVICE_NAME, name))
            .setSampledToLocalTracing(true)
            .setRequestMarshaller(ProtoUtils.marshaller(request))
            .setResponseMarshaller(ProtoUtils.marshaller(response))
            .build();
    METHODS.add(d);
    return d;
  }

  /** Every method of the service, in the order urlfrontier.proto declares them. */
  public static List<MethodDescriptor<?, ?>> methods() {
    return Collections.unmodifiableList(METHODS);
  }

  public static URLFrontierStub newStub(Channel channel) {
    return AbstractAsyncStub.newStub(URLFrontierStub::new, channel);
  }

  public static URLFrontierBlockingStub newBlockingStub(Channel channel) {
    return AbstractBlockingStub.newStub(URLFrontierBlockingStub::new, channel);
  }

  /** The server side: every method answers UNIMPLEMENTED until overridden. */
  public abstract static class URLFrontierImplBase implements BindableService {
    public void listNodes(Empty request, StreamObserver<StringList> out) {
      ServerCalls.asyncUnimplementedUnaryCall(LIST_NODES, out);
    }

    public void listCrawls(Local request, StreamObserver<StringList> out) {
      ServerCalls.asyncUnimplementedUnaryCall(LIST_CRAWLS, out);
    }

    public void deleteCrawl(DeleteCrawlMessage request, StreamObserver<Urlfrontier.Long> out) {
      ServerCalls.asyncUnimplementedUnaryCall(DELETE_CRAWL, out);
    }

    public void listQueues(Pagination request, StreamObserver<QueueList> out) {
      ServerCalls.asyncUnimplementedUnaryCall(LIST_QUEUES, out);
    }

    public void getURLs(GetParams request, StreamObserver<URLInfo> out) {
      ServerCalls.asyncUnimplementedUnaryCall(GET_URLS, out);
    }

    public StreamObserver<URLItem> putURLs(StreamObserver<AckMessage> out) {
      return ServerCalls.asyncUnimplementedStreamingCall(PUT_URLS, out);
    }

    public StreamObserver<DiscoveredBatch> putDiscovered(StreamObserver<BatchAck> out) {
      return ServerCalls.asyncUnimplementedStreamingCall(PUT_DISCOVERED, out);
    }

    public void getStats(QueueWithinCrawlParams request, StreamObserver<Stats> out) {
      ServerCalls.asyncUnimplementedUnaryCall(GET_STATS, out);
    }

    public void deleteQueue(QueueWithinCrawlParams request, StreamObserver<Urlfrontier.Long> out) {
      ServerCalls.asyncUnimplementedUnaryCall(DELETE_QUEUE, out);
    }

    public void blockQueueUntil(BlockQueueParams request, StreamObserver<Empty> out) {
      ServerCalls.asyncUnimplementedUnaryCall(BLOCK_QUEUE_UNTIL, out);
    }

    public void setActive(Active request, StreamObserver<Empty> out) {
      ServerCalls.asyncUnimplementedUnaryCall(SET_ACTIVE, out);
    }

    public void getActive(Local request, StreamObserver<Urlfrontier.Boolean> out) {
      ServerCalls.asyncUnimplementedUnaryCall(GET_ACTIVE, out);
    }

    public void setDelay(QueueDelayParams request, StreamObserver<Empty> out) {
      ServerCalls.asyncUnimplementedUnaryCall(SET_DELAY, out);
    }

    public void setLogLevel(LogLevelParams request, StreamObserver<Empty> out) {
      ServerCalls.asyncUnimplementedUnaryCall(SET_LOG_LEVEL, out);
    }

    public void setCrawlLimit(CrawlLimitParams request, StreamObserver<Empty> out) {
      ServerCalls.asyncUnimplementedUnaryCall(SET_CRAWL_LIMIT, out);
    }

    public void getURLStatus(URLStatusRequest request, StreamObserver<URLItem> out) {
      ServerCalls.asyncUnimplementedUnaryCall(GET_URL_STATUS, out);
    }

    public void listURLs(ListUrlParams request, StreamObserver<URLItem> out) {
      ServerCalls.asyncUnimplementedUnaryCall(LIST_URLS, out);
    }

    public void countURLs(CountUrlParams request, StreamObserver<Urlfrontier.Long> out) {
      ServerCalls.asyncUnimplementedUnaryCall(COUNT_URLS, out);
    }

    public void purgeURLs(PurgeUrlParams request, StreamObserver<Urlfrontier.Long> out) {
      ServerCalls.asyncUnimplementedUnaryCall(PURGE_URLS, out);
    }

    @Override
    public final ServerServiceDefinition bindService() {
      return ServerServiceDefinition.builder(SERVICE_NAME)
          .addMethod(LIST_NODES, ServerCalls.asyncUnaryCall(this::listNodes))
          .addMethod(LIST_CRAWLS, ServerCalls.asyncUnaryCall(this::listCrawls))
          .addMethod(DELETE_CRAWL, ServerCalls.asyncUnaryCall(this::deleteCrawl))
          .addMethod(LIST_QUEUES, ServerCalls.asyncUnaryCall(this::listQueues))
          .addMethod(GET_URLS, ServerCalls.asyncServerStreamingCall(this::getURLs))
          .addMethod(PUT_URLS, ServerCalls.asyncBidiStreamingCall(this::putURLs))
          .addMethod(PUT_DISCOVERED, ServerCalls.asyncBidiStreamingCall(this::putDiscovered))
          .addMethod(GET_STATS, ServerCalls.asyncUnaryCall(this::getStats))
          .addMethod(DELETE_QUEUE, ServerCalls.asyncUnaryCall(this::deleteQueue))
          .addMethod(BLOCK_QUEUE_UNTIL, ServerCalls.asyncUnaryCall(this::blockQueueUntil))
          .addMethod(SET_ACTIVE, ServerCalls.asyncUnaryCall(this::setActive))
          .addMethod(GET_ACTIVE, ServerCalls.asyncUnaryCall(this::getActive))
          .addMethod(SET_DELAY, ServerCalls.asyncUnaryCall(this::setDelay))
          .addMethod(SET_LOG_LEVEL, ServerCalls.asyncUnaryCall(this::setLogLevel))
          .addMethod(SET_CRAWL_LIMIT, ServerCalls.asyncUnaryCall(this::setCrawlLimit))
          .addMethod(GET_URL_STATUS, ServerCalls.asyncUnaryCall(this::getURLStatus))
          .addMethod(LIST_URLS, ServerCalls.asyncServerStreamingCall(this::listURLs))
          .addMethod(COUNT_URLS, ServerCalls.asyncUnaryCall(this::countURLs))
          .addMethod(PURGE_URLS, ServerCalls.asyncUnaryCall(this::purgeURLs))
          .build();
    }
  }

  /** The asynchronous client: answers arrive on the observer given. */
  public static final class URLFrontierStub extends AbstractAsyncStub<URLFrontierStub> {
    private URLFrontierStub(Channel channel, CallOptions options) {
      super(channel, options);
    }

    @Override
    protected URLFrontierStub build(Channel channel, CallOptions options) {
      return new URLFrontierStub(channel, options);
    }

    private <Q, R> void unary(MethodDescriptor<Q, R> m, Q request, StreamObserver<R> out) {
      ClientCalls.asyncUnaryCall(getChannel().newCall(m, getCallOptions()), request, out);
    }

    public void listNodes(Empty request, StreamObserver<StringList> out) {
      unary(LIST_NODES, request, out);
    }

    public void listCrawls(Local request, StreamObserver<StringList> out) {
      unary(LIST_CRAWLS, request, out);
    }

    public void deleteCrawl(DeleteCrawlMessage request, StreamObserver<Urlfrontier.Long> out) {
      unary(DELETE_CRAWL, request, out);
    }

    public void listQueues(Pagination request, StreamObserver<QueueList> out) {
      unary(LIST_QUEUES, request, out);
    }

    public void getURLs(GetParams request, StreamObserver<URLInfo> out) {
      ClientCalls.asyncServerStreamingCall(
          getChannel().newCall(GET_URLS, getCallOptions()), request, out);
    }

    public StreamObserver<URLItem> putURLs(StreamObserver<AckMessage> out) {
      return ClientCalls.asyncBidiStreamingCall(
          getChannel().newCall(PUT_URLS, getCallOptions()), out);
    }

    public StreamObserver<DiscoveredBatch> putDiscovered(StreamObserver<BatchAck> out) {
      return ClientCalls.asyncBidiStreamingCall(
          getChannel().newCall(PUT_DISCOVERED, getCallOptions()), out);
    }

    public void getStats(QueueWithinCrawlParams request, StreamObserver<Stats> out) {
      unary(GET_STATS, request, out);
    }

    public void deleteQueue(QueueWithinCrawlParams request, StreamObserver<Urlfrontier.Long> out) {
      unary(DELETE_QUEUE, request, out);
    }

    public void blockQueueUntil(BlockQueueParams request, StreamObserver<Empty> out) {
      unary(BLOCK_QUEUE_UNTIL, request, out);
    }

    public void setActive(Active request, StreamObserver<Empty> out) {
      unary(SET_ACTIVE, request, out);
    }

    public void getActive(Local request, StreamObserver<Urlfrontier.Boolean> out) {
      unary(GET_ACTIVE, request, out);
    }

    public void setDelay(QueueDelayParams request, StreamObserver<Empty> out) {
      unary(SET_DELAY, request, out);
    }

    public void setLogLevel(LogLevelParams request, StreamObserver<Empty> out) {
      unary(SET_LOG_LEVEL, request, out);
    }

    public void setCrawlLimit(CrawlLimitParams request, StreamObserver<Empty> out) {
      unary(SET_CRAWL_LIMIT, request, out);
    }

    public void getURLStatus(URLStatusRequest request, StreamObserver<URLItem> out) {
      unary(GET_URL_STATUS, request, out);
    }

    public void listURLs(ListUrlParams request, StreamObserver<URLItem> out) {
      ClientCalls.asyncServerStreamingCall(
          getChannel().newCall(LIST_URLS, getCallOptions()), request, out);
    }

    public void countURLs(CountUrlParams request, StreamObserver<Urlfrontier.Long> out) {
      unary(COUNT_URLS, request, out);
    }

    public void purgeURLs(PurgeUrlParams request, StreamObserver<Urlfrontier.Long> out) {
      unary(PURGE_URLS, request, out);
    }
  }

  /** The blocking client: unary calls answer their value, server streams an iterator. */
  public static final class URLFrontierBlockingStub
      extends AbstractBlockingStub<URLFrontierBlockingStub> {
    private URLFrontierBlockingStub(Channel channel, CallOptions options) {
      super(channel, options);
    }

    @Override
    protected URLFrontierBlockingStub build(Channel channel, CallOptions options) {
      return new URLFrontierBlockingStub(channel, options);
    }

    private <Q, R> R unary(MethodDescriptor<Q, R> m, Q request) {
      return ClientCalls.blockingUnaryCall(getChannel(), m, getCallOptions(), request);
    }

    public StringList listNodes(Empty request) {
      return unary(LIST_NODES, request);
    }

    public StringList listCrawls(Local request) {
      return unary(LIST_CRAWLS, request);
    }

    public Urlfrontier.Long deleteCrawl(DeleteCrawlMessage request) {
      return unary(DELETE_CRAWL, request);
    }

    public QueueList listQueues(Pagination request) {
      return unary(LIST_QUEUES, request);
    }

    public Iterator<URLInfo> getURLs(GetParams request) {
      return ClientCalls.blockingServerStreamingCall(
          getChannel(), GET_URLS, getCallOptions(), request);
    }

    public Stats getStats(QueueWithinCrawlParams request) {
      return unary(GET_STATS, request);
    }

    public Urlfrontier.Long deleteQueue(QueueWithinCrawlParams request) {
      return unary(DELETE_QUEUE, request);
    }

    public Empty blockQueueUntil(BlockQueueParams request) {
      return unary(BLOCK_QUEUE_UNTIL, request);
    }

    public Empty setActive(Active request) {
      return unary(SET_ACTIVE, request);
    }

    public Urlfrontier.Boolean getActive(Local request) {
      return unary(GET_ACTIVE, request);
    }

    public Empty setDelay(QueueDelayParams request) {
      return unary(SET_DELAY, request);
    }

    public Empty setLogLevel(LogLevelParams request) {
      return unary(SET_LOG_LEVEL, request);
    }

    public Empty setCrawlLimit(CrawlLimitParams request) {
      return unary(SET_CRAWL_LIMIT, request);
    }

    public URLItem getURLStatus(URLStatusRequest request) {
      return unary(GET_URL_STATUS, request);
    }

    public Iterator<URLItem> listURLs(ListUrlParams request) {
      return ClientCalls.blockingServerStreamingCall(
          getChannel(), LIST_URLS, getCallOptions(), request);
    }

    public Urlfrontier.Long countURLs(CountUrlParams request) {
      return unary(COUNT_URLS, request);
    }

    public Urlfrontier.Long purgeURLs(PurgeUrlParams request) {
      return unary(PURGE_URLS, request);
    }
  }
}
