package org.casebook.frontier.wire;

import crawlercommons.urlfrontier.URLFrontierGrpc;
import crawlercommons.urlfrontier.Urlfrontier;
import crawlercommons.urlfrontier.Urlfrontier.AckMessage;
import crawlercommons.urlfrontier.Urlfrontier.URLInfo;
import crawlercommons.urlfrontier.Urlfrontier.URLItem;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.StreamObserver;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Supplier;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.config.Configurator;
import org.casebook.core.ErrorKind;
import org.casebook.core.InvalidInputException;
import org.casebook.core.net.Listener;
import org.casebook.frontier.FrontierService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The URLFrontier 2.6 gRPC service over {@link FrontierService}: every RPC, its messages mapped by
 * {@link UrlFrontierMessages}, errors as gRPC statuses (invalid input → INVALID_ARGUMENT, not found
 * → NOT_FOUND, HBase unavailable → UNAVAILABLE). PutURLs streams are gathered into batches by
 * {@link PutUrlsStream}; PutDiscovered's batches come ready made ({@link PutDiscoveredStream}).
 */
public final class FrontierGrpc extends URLFrontierGrpc.URLFrontierImplBase {
  private static final Logger LOG = LoggerFactory.getLogger(FrontierGrpc.class);

  private final FrontierService service;
  private final ScheduledExecutorService flusher;

  private FrontierGrpc(FrontierService service, ScheduledExecutorService flusher) {
    this.service = Objects.requireNonNull(service, "service is null");
    this.flusher = Objects.requireNonNull(flusher, "flusher is null");
  }

  /**
   * A listener serving {@code service} over URLFrontier gRPC; {@code flusher} writes PutURLs
   * batches that waited long enough; calls are counted per method in {@code meters} and checked and
   * audited through {@code access}.
   */
  public static Listener.Factory listener(
      FrontierService service,
      ScheduledExecutorService flusher,
      MeterRegistry meters,
      org.casebook.core.access.AccessGate access) {
    return GrpcListener.factory(new FrontierGrpc(service, flusher), meters, access);
  }

  /** Answers one value, or the failure as a gRPC status. */
  private static <T> void unary(StreamObserver<T> out, Supplier<T> call) {
    T value;
    try {
      value = call.get();
    } catch (RuntimeException e) {
      out.onError(status(e));
      return;
    }
    out.onNext(value);
    out.onCompleted();
  }

  /** Answers a stream of values, or the failure as a gRPC status before any value. */
  private static <T> void streamed(StreamObserver<T> out, Supplier<List<T>> call) {
    List<T> values;
    try {
      values = call.get();
    } catch (RuntimeException e) {
      out.onError(status(e));
      return;
    }
    values.forEach(out::onNext);
    out.onCompleted();
  }

  static StatusRuntimeException status(RuntimeException e) {
    ErrorKind kind = ErrorKind.of(e);
    Status s =
        switch (kind) {
          case INVALID_INPUT -> Status.INVALID_ARGUMENT;
          case NOT_FOUND -> Status.NOT_FOUND;
          case CONFLICT, PRECONDITION_FAILED -> Status.FAILED_PRECONDITION;
          case STORAGE_UNAVAILABLE, INTERRUPTED -> Status.UNAVAILABLE;
          case INSUFFICIENT_STORAGE -> Status.RESOURCE_EXHAUSTED;
          default -> Status.INTERNAL;
        };
    if (s == Status.INTERNAL) {
      LOG.error("frontier: a call failed", e);
    }
    String field = e instanceof InvalidInputException iie ? iie.field() + ": " : "";
    return s.withDescription(field + e.getMessage()).asRuntimeException();
  }

  private static Urlfrontier.Long longOf(long v) {
    return Urlfrontier.Long.newBuilder().setValue(v).build();
  }

  private static Urlfrontier.Empty empty() {
    return Urlfrontier.Empty.getDefaultInstance();
  }

  @Override
  public void listNodes(Urlfrontier.Empty request, StreamObserver<Urlfrontier.StringList> out) {
    unary(out, () -> Urlfrontier.StringList.newBuilder().addAllValues(service.listNodes()).build());
  }

  @Override
  public void listCrawls(Urlfrontier.Local request, StreamObserver<Urlfrontier.StringList> out) {
    unary(
        out, () -> Urlfrontier.StringList.newBuilder().addAllValues(service.listCrawls()).build());
  }

  @Override
  public void deleteCrawl(
      Urlfrontier.DeleteCrawlMessage request, StreamObserver<Urlfrontier.Long> out) {
    unary(out, () -> longOf(service.deleteCrawl(request.getValue())));
  }

  @Override
  public void listQueues(
      Urlfrontier.Pagination request, StreamObserver<Urlfrontier.QueueList> out) {
    unary(
        out,
        () ->
            UrlFrontierMessages.queues(
                service.listQueues(
                    request.getCrawlID(),
                    request.getStart(),
                    request.getSize(),
                    request.getIncludeInactive())));
  }

  @Override
  public void getURLs(Urlfrontier.GetParams request, StreamObserver<URLInfo> out) {
    streamed(
        out,
        () ->
            service.getUrls(UrlFrontierMessages.request(request)).stream()
                .map(UrlFrontierMessages::urlInfo)
                .toList());
  }

  @Override
  public StreamObserver<URLItem> putURLs(StreamObserver<AckMessage> out) {
    return new PutUrlsStream(service, flusher, out);
  }

  @Override
  public StreamObserver<Urlfrontier.DiscoveredBatch> putDiscovered(
      StreamObserver<Urlfrontier.BatchAck> out) {
    return new PutDiscoveredStream(service, out);
  }

  @Override
  public void getStats(
      Urlfrontier.QueueWithinCrawlParams request, StreamObserver<Urlfrontier.Stats> out) {
    unary(
        out,
        () -> UrlFrontierMessages.stats(service.stats(request.getCrawlID(), request.getKey())));
  }

  @Override
  public void deleteQueue(
      Urlfrontier.QueueWithinCrawlParams request, StreamObserver<Urlfrontier.Long> out) {
    unary(out, () -> longOf(service.deleteQueue(request.getCrawlID(), request.getKey())));
  }

  @Override
  public void blockQueueUntil(
      Urlfrontier.BlockQueueParams request, StreamObserver<Urlfrontier.Empty> out) {
    unary(
        out,
        () -> {
          service.blockQueueUntil(request.getCrawlID(), request.getKey(), request.getTime());
          return empty();
        });
  }

  @Override
  public void setActive(Urlfrontier.Active request, StreamObserver<Urlfrontier.Empty> out) {
    unary(
        out,
        () -> {
          service.setActive(request.getState());
          return empty();
        });
  }

  @Override
  public void getActive(Urlfrontier.Local request, StreamObserver<Urlfrontier.Boolean> out) {
    unary(out, () -> Urlfrontier.Boolean.newBuilder().setState(service.active()).build());
  }

  @Override
  public void setDelay(
      Urlfrontier.QueueDelayParams request, StreamObserver<Urlfrontier.Empty> out) {
    unary(
        out,
        () -> {
          service.setDelay(request.getCrawlID(), request.getKey(), request.getDelayRequestable());
          return empty();
        });
  }

  /** SetLogLevel: the log4j level of a logger (a package), for this process. */
  @Override
  public void setLogLevel(
      Urlfrontier.LogLevelParams request, StreamObserver<Urlfrontier.Empty> out) {
    unary(
        out,
        () -> {
          InvalidInputException.check(
              !request.getPackage().isBlank(), "package", "a package name is required");
          InvalidInputException.check(
              request.getLevel() != Urlfrontier.LogLevelParams.Level.UNRECOGNIZED,
              "level",
              "unknown level");
          Configurator.setLevel(request.getPackage(), Level.valueOf(request.getLevel().name()));
          LOG.info("log level of {} set to {}", request.getPackage(), request.getLevel());
          return empty();
        });
  }

  /**
   * SetCrawlLimit; {@code local} (2.6) changes nothing here: the limit is a setting of the host row
   * in the tables every node serves from, so this node and every node are the same scope.
   */
  @Override
  public void setCrawlLimit(
      Urlfrontier.CrawlLimitParams request, StreamObserver<Urlfrontier.Empty> out) {
    unary(
        out,
        () -> {
          service.setCrawlLimit(request.getCrawlID(), request.getKey(), request.getLimit());
          return empty();
        });
  }

  @Override
  public void getURLStatus(Urlfrontier.URLStatusRequest request, StreamObserver<URLItem> out) {
    unary(
        out,
        () ->
            UrlFrontierMessages.known(
                service.urlStatus(request.getCrawlID(), request.getKey(), request.getUrl())));
  }

  @Override
  public void listURLs(Urlfrontier.ListUrlParams request, StreamObserver<URLItem> out) {
    streamed(
        out,
        () ->
            service
                .listUrls(
                    request.getCrawlID(),
                    request.getKey(),
                    request.getStart(),
                    request.getSize(),
                    request.hasFilter() ? request.getFilter() : null,
                    request.getIgnoreCase())
                .stream()
                .map(UrlFrontierMessages::known)
                .toList());
  }

  @Override
  public void purgeURLs(Urlfrontier.PurgeUrlParams request, StreamObserver<Urlfrontier.Long> out) {
    // days is a uint32: read by Java as an int, 2^31 and more turn negative and are refused
    unary(
        out,
        () -> longOf(service.purgeUrls(request.getCrawlID(), request.getKey(), request.getDays())));
  }

  @Override
  public void countURLs(Urlfrontier.CountUrlParams request, StreamObserver<Urlfrontier.Long> out) {
    unary(
        out,
        () ->
            longOf(
                service.countUrls(
                    request.getCrawlID(),
                    request.getKey(),
                    request.hasFilter() ? request.getFilter() : null,
                    request.getIgnoreCase())));
  }
}
