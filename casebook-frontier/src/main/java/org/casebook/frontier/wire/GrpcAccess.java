package org.casebook.frontier.wire;

import io.grpc.ForwardingServerCall;
import io.grpc.ForwardingServerCallListener;
import io.grpc.Grpc;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.casebook.core.access.AccessGate;
import org.casebook.core.access.Action;
import org.casebook.core.access.Caller;

/**
 * URLFrontier's calls checked as HTTP routes are: the caller from the {@code authorization}
 * metadata ({@code Bearer <token>}, gRPC's call credentials), the action each method needs, a
 * refusal answered {@code UNAUTHENTICATED} or {@code PERMISSION_DENIED}, and every call that is not
 * a read audited with its final status.
 */
final class GrpcAccess implements ServerInterceptor {
  static final Metadata.Key<String> AUTHORIZATION =
      Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER);

  /**
   * Handing out URLs changes the frontier (they are in flight until acknowledged), so GetURLs is a
   * write; deleting and purging are an admin's, and so are pausing the whole frontier and a
   * process-wide log level.
   */
  private static final Map<String, Action> ACTIONS =
      Map.ofEntries(
          Map.entry("ListNodes", Action.READ),
          Map.entry("ListCrawls", Action.READ),
          Map.entry("ListQueues", Action.READ),
          Map.entry("GetStats", Action.READ),
          Map.entry("GetActive", Action.READ),
          Map.entry("GetURLStatus", Action.READ),
          Map.entry("ListURLs", Action.READ),
          Map.entry("CountURLs", Action.READ),
          Map.entry("GetURLs", Action.WRITE),
          Map.entry("PutURLs", Action.WRITE),
          Map.entry("PutDiscovered", Action.WRITE),
          Map.entry("BlockQueueUntil", Action.WRITE),
          Map.entry("SetActive", Action.ADMIN),
          Map.entry("SetDelay", Action.WRITE),
          Map.entry("SetCrawlLimit", Action.WRITE),
          Map.entry("DeleteCrawl", Action.ADMIN),
          Map.entry("DeleteQueue", Action.ADMIN),
          Map.entry("PurgeURLs", Action.ADMIN),
          Map.entry("SetLogLevel", Action.ADMIN));

  private final AccessGate gate;

  GrpcAccess(AccessGate gate) {
    this.gate = gate;
  }

  /** The action {@code method} needs; a method this table does not know is an admin's. */
  static Action actionOf(String method) {
    return ACTIONS.getOrDefault(method, Action.ADMIN);
  }

  @Override
  public <Q, A> ServerCall.Listener<Q> interceptCall(
      ServerCall<Q, A> call, Metadata headers, ServerCallHandler<Q, A> next) {
    String method = call.getMethodDescriptor().getBareMethodName();
    Action needed = actionOf(method);
    String remote = remote(call.getAttributes().get(Grpc.TRANSPORT_ATTR_REMOTE_ADDR));
    Optional<Caller> known = gate.byHeader(headers.get(AUTHORIZATION));
    if (known.isEmpty()) {
      gate.unknownCredential("grpc");
      return refuse(
          call,
          Status.UNAUTHENTICATED.withDescription("the token presented is not known here"),
          gate.anonymous(),
          needed,
          method,
          remote);
    }
    Caller caller = known.get();
    if (!gate.check(caller, needed, "grpc")) {
      Status status =
          caller.authenticated()
              ? Status.PERMISSION_DENIED.withDescription(
                  caller.name() + " may not " + needed.label() + " on " + gate.system())
              : Status.UNAUTHENTICATED.withDescription(
                  method + " needs authorization metadata: Bearer <token>");
      return refuse(call, status, caller, needed, method, remote);
    }
    if (needed == Action.READ) {
      return next.startCall(call, headers);
    }
    // One entry per call, at its close or, when the client goes first, at its cancellation.
    AtomicBoolean recorded = new AtomicBoolean();
    ServerCall<Q, A> audited =
        new ForwardingServerCall.SimpleForwardingServerCall<>(call) {
          @Override
          public void close(Status status, Metadata trailers) {
            try {
              if (recorded.compareAndSet(false, true)) {
                gate.audit(caller, needed, "grpc " + method, status.getCode().name(), remote);
              }
            } finally {
              super.close(status, trailers);
            }
          }
        };
    return new ForwardingServerCallListener.SimpleForwardingServerCallListener<>(
        next.startCall(audited, headers)) {
      @Override
      public void onCancel() {
        if (recorded.compareAndSet(false, true)) {
          gate.audit(caller, needed, "grpc " + method, Status.Code.CANCELLED.name(), remote);
        }
        super.onCancel();
      }
    };
  }

  private <Q, A> ServerCall.Listener<Q> refuse(
      ServerCall<Q, A> call,
      Status status,
      Caller caller,
      Action needed,
      String method,
      String remote) {
    if (needed != Action.READ) {
      gate.audit(caller, needed, "grpc " + method, status.getCode().name(), remote);
    }
    call.close(status, new Metadata());
    return new ServerCall.Listener<>() {};
  }

  private static String remote(SocketAddress address) {
    if (address instanceof InetSocketAddress a && a.getAddress() != null) {
      return a.getAddress().getHostAddress() + ":" + a.getPort();
    }
    return String.valueOf(address);
  }
}
