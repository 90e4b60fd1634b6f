package org.casebook.frontier;

import crawlercommons.urlfrontier.URLFrontierGrpc;
import crawlercommons.urlfrontier.Urlfrontier;
import crawlercommons.urlfrontier.Urlfrontier.AckMessage;
import crawlercommons.urlfrontier.Urlfrontier.URLInfo;
import crawlercommons.urlfrontier.Urlfrontier.URLItem;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.StreamObserver;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.config.Configurator;
import org.casebook.core.ErrorKind;
import org.casebook.core.InvalidInputException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The URLFrontier 2.5 gRPC service over {@link FrontierService}: every RPC, errors as gRPC statuses
 * (invalid input → INVALID_ARGUMENT, not found → NOT_FOUND, HBase unavailable → UNAVAILABLE).
 * PutURLs gathers a stream into batches — written when {@value #PUT_BATCH} items wait or {@value
 * #PUT_LINGER_MS} ms after the first — so a long-lived stream of a few URLs is acknowledged at once
 * and a bulk stream is written in large batches.
 */
final class FrontierGrpc extends URLFrontierGrpc.URLFrontierImplBase {
  private static final Logger LOG = LoggerFactory.getLogger(FrontierGrpc.class);

  static final int PUT_BATCH = 2000;
  static final long PUT_LINGER_MS = 5;

  private final FrontierService service;
  private final ScheduledExecutorService flusher;

  FrontierGrpc(FrontierService service, ScheduledExecutorService flusher) {
    this.service = Objects.requireNonNull(service, "service is null");
    this.flusher = Objects.requireNonNull(flusher, "flusher is null");
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

  static StatusRuntimeException status(RuntimeException e) {
    ErrorKind kind = ErrorKind.of(e);
    Status s =
        switch (kind) {
          case INVALID_INPUT -> Status.INVALID_ARGUMENT;
          case NOT_FOUND -> Status.NOT_FOUND;
          case CONFLICT, PRECONDITION_FAILED -> Status.FAILED_PRECONDITION;
          case STORAGE_UNAVAILABLE, INTERRUPTED -> Status.UNAVAILABLE;
          default -> Status.INTERNAL;
        };
    if (s == Status.INTERNAL) {
      LOG.error("frontier: a call failed", e);
    }
    String field = e instanceof InvalidInputException iie ? iie.field() + ": " : "";
    return s.withDescription(field + e.getMessage()).asRuntimeException();
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

  private static Urlfrontier.Long longOf(long v) {
    return Urlfrontier.Long.newBuilder().setValue(v).build();
  }

  @Override
  public void listQueues(
      Urlfrontier.Pagination request, StreamObserver<Urlfrontier.QueueList> out) {
    unary(
        out,
        () ->
            service.listQueues(
                request.getCrawlID(),
                request.getStart(),
                request.getSize(),
                request.getIncludeInactive()));
  }

  @Override
  public void getURLs(Urlfrontier.GetParams request, StreamObserver<URLInfo> out) {
    List<URLInfo> urls;
    try {
      urls = service.getUrls(request);
    } catch (RuntimeException e) {
      out.onError(status(e));
      return;
    }
    urls.forEach(out::onNext);
    out.onCompleted();
  }

  @Override
  public StreamObserver<URLItem> putURLs(StreamObserver<AckMessage> out) {
    return new PutStream(out);
  }

  @Override
  public void getStats(
      Urlfrontier.QueueWithinCrawlParams request, StreamObserver<Urlfrontier.Stats> out) {
    unary(
        out,
        () -> {
          QueueStats s = service.stats(request.getCrawlID(), request.getKey());
          return Urlfrontier.Stats.newBuilder()
              .setCrawlID(s.crawlId())
              .setNumberOfQueues(s.queues())
              .setSize(s.queued())
              .setInProcess((int) Math.min(Integer.MAX_VALUE, s.inFlight()))
              .putAllCounts(FrontierService.countsOf(s))
              .build();
        });
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
          return Urlfrontier.Empty.getDefaultInstance();
        });
  }

  @Override
  public void setActive(Urlfrontier.Active request, StreamObserver<Urlfrontier.Empty> out) {
    unary(
        out,
        () -> {
          service.setActive(request.getState());
          return Urlfrontier.Empty.getDefaultInstance();
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
          return Urlfrontier.Empty.getDefaultInstance();
        });
  }

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
          return Urlfrontier.Empty.getDefaultInstance();
        });
  }

  @Override
  public void setCrawlLimit(
      Urlfrontier.CrawlLimitParams request, StreamObserver<Urlfrontier.Empty> out) {
    unary(
        out,
        () -> {
          service.setCrawlLimit(request.getCrawlID(), request.getKey(), request.getLimit());
          return Urlfrontier.Empty.getDefaultInstance();
        });
  }

  @Override
  public void getURLStatus(Urlfrontier.URLStatusRequest request, StreamObserver<URLItem> out) {
    unary(out, () -> service.urlStatus(request.getCrawlID(), request.getKey(), request.getUrl()));
  }

  @Override
  public void listURLs(Urlfrontier.ListUrlParams request, StreamObserver<URLItem> out) {
    List<URLItem> items;
    try {
      items =
          service.listUrls(
              request.getCrawlID(),
              request.getKey(),
              request.getStart(),
              request.getSize(),
              request.hasFilter() ? request.getFilter() : null,
              request.getIgnoreCase());
    } catch (RuntimeException e) {
      out.onError(status(e));
      return;
    }
    items.forEach(out::onNext);
    out.onCompleted();
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

  /**
   * One PutURLs stream: items wait in a batch; the batch is written when full (on the caller's
   * thread, which holds the stream back meanwhile) or shortly after its first item, and every item
   * is acknowledged. The stream completes after its last batch is acknowledged.
   */
  private final class PutStream implements StreamObserver<URLItem> {
    private final StreamObserver<AckMessage> out;
    private final Object writeLock = new Object();
    private List<URLItem> batch = new ArrayList<>();
    private boolean lingering;
    private boolean failed;

    PutStream(StreamObserver<AckMessage> out) {
      this.out = out;
    }

    @Override
    public void onNext(URLItem item) {
      boolean full;
      synchronized (this) {
        batch.add(item);
        full = batch.size() >= PUT_BATCH;
        if (!full && !lingering) {
          lingering = true;
          flusher.schedule(this::flushLingering, PUT_LINGER_MS, TimeUnit.MILLISECONDS);
        }
      }
      if (full) {
        flush();
      }
    }

    private void flushLingering() {
      synchronized (this) {
        lingering = false;
      }
      flush();
    }

    private void flush() {
      synchronized (writeLock) {
        List<URLItem> items;
        synchronized (this) {
          if (batch.isEmpty() || failed) {
            return;
          }
          items = batch;
          batch = new ArrayList<>();
        }
        List<AckMessage> acks;
        try {
          acks = service.put(items);
        } catch (RuntimeException e) {
          // put acknowledges per item and fails items, not calls: anything else is a bug
          LOG.error("frontier: PutURLs batch failed", e);
          acks = new ArrayList<>(items.size());
          for (URLItem it : items) {
            acks.add(
                AckMessage.newBuilder()
                    .setID(it.getID())
                    .setStatus(AckMessage.Status.FAIL)
                    .build());
          }
        }
        synchronized (out) {
          acks.forEach(out::onNext);
        }
      }
    }

    @Override
    public void onError(Throwable t) {
      synchronized (this) {
        failed = true;
        batch.clear();
      }
      if (!(t instanceof StatusRuntimeException s
          && s.getStatus().getCode() == Status.Code.CANCELLED)) {
        LOG.warn("frontier: PutURLs stream ended by the client: {}", t.toString());
      }
    }

    @Override
    public void onCompleted() {
      flush();
      synchronized (writeLock) {
        synchronized (out) {
          out.onCompleted();
        }
      }
    }
  }
}
