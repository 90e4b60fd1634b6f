package org.casebook.banknote;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import org.casebook.banknote.agent.SpoolAgent;

/**
 * A front between one device agent and the collector, as a load balancer would stand there, that
 * misbehaves on purpose from a seed: it answers some uploads 503 itself (as when the collector is
 * busy), and forwards the rest, but loses the answer of some of those after the collector stored
 * them (the agent sees the connection close with no answer); for half of the lost answers it also
 * stops the agent, as if its process died while waiting. It tallies what the agent got back, and
 * what the collector answered, which the agent itself does not keep.
 */
final class AgentGateway implements AutoCloseable {
  /** The gateway's own 503, in {@link #agentSaw}. */
  static final String BUSY = "503 from the gateway";

  /** A connection closed with no answer, in {@link #agentSaw}. */
  static final String NO_ANSWER = "no answer";

  private static final double BUSY_SHARE = 0.12;
  private static final double LOST_SHARE = 0.12;

  private static final HttpClient UPSTREAM =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(5))
          .build();

  /** What the agent got: a status it was answered, {@link #BUSY} or {@link #NO_ANSWER}. */
  final Map<String, Long> agentSaw = new ConcurrentHashMap<>();

  /** What the collector answered the uploads forwarded to it, by status. */
  final Map<String, Long> collectorAnswers = new ConcurrentHashMap<>();

  /** The uploads (counted from 1) whose lost answer stopped the agent. */
  final List<Long> crashes = new CopyOnWriteArrayList<>();

  /** The agent behind the gateway now, which a lost answer may stop. */
  volatile SpoolAgent agent;

  private final String collector;
  private final SplittableRandom random;
  private final AtomicLong uploads = new AtomicLong();
  private final ExecutorService threads = Executors.newFixedThreadPool(2);
  private final HttpServer server;

  /** A gateway on a free loopback port forwarding to {@code collector} (scheme, host and port). */
  AgentGateway(String collector, long seed) throws IOException {
    this.collector = collector;
    this.random = new SplittableRandom(seed);
    this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", this::handle);
    server.setExecutor(threads);
    server.start();
  }

  /** Where the agent sends: the gateway's base URL. */
  URI uri() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  private enum Fate {
    BUSY,
    LOST,
    LOST_AND_CRASH,
    FORWARDED
  }

  private synchronized Fate fate() {
    double r = random.nextDouble();
    if (r < BUSY_SHARE) {
      return Fate.BUSY;
    }
    if (r < BUSY_SHARE + LOST_SHARE) {
      return random.nextBoolean() ? Fate.LOST : Fate.LOST_AND_CRASH;
    }
    return Fate.FORWARDED;
  }

  private void handle(HttpExchange exchange) throws IOException {
    try {
      byte[] body = exchange.getRequestBody().readAllBytes();
      long upload = uploads.incrementAndGet();
      Fate fate = fate();
      if (fate == Fate.BUSY) {
        answer(
            exchange,
            503,
            "{\"error\":\"collector busy (the gateway says)\"}".getBytes(StandardCharsets.UTF_8));
        agentSaw.merge(BUSY, 1L, Long::sum);
        return;
      }
      HttpResponse<byte[]> upstream = forward(exchange, body);
      collectorAnswers.merge(Integer.toString(upstream.statusCode()), 1L, Long::sum);
      if (fate != Fate.FORWARDED) {
        SpoolAgent behind = agent;
        if (fate == Fate.LOST_AND_CRASH && behind != null) {
          behind.stop();
          crashes.add(upload);
        }
        // Closing the exchange before any answer is written closes the connection unanswered.
        agentSaw.merge(NO_ANSWER, 1L, Long::sum);
        return;
      }
      answer(exchange, upstream.statusCode(), upstream.body());
      agentSaw.merge(Integer.toString(upstream.statusCode()), 1L, Long::sum);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      agentSaw.merge(NO_ANSWER, 1L, Long::sum);
    } catch (IOException e) {
      // The collector could not be reached: the agent is left unanswered as well.
      agentSaw.merge(NO_ANSWER, 1L, Long::sum);
    } finally {
      exchange.close();
    }
  }

  private HttpResponse<byte[]> forward(HttpExchange exchange, byte[] body)
      throws IOException, InterruptedException {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(collector + exchange.getRequestURI()))
            .timeout(Duration.ofSeconds(60))
            .method(exchange.getRequestMethod(), HttpRequest.BodyPublishers.ofByteArray(body));
    for (String header : new String[] {"Content-Type", "Authorization"}) {
      String value = exchange.getRequestHeaders().getFirst(header);
      if (value != null) {
        request.header(header, value);
      }
    }
    return UPSTREAM.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
  }

  private static void answer(HttpExchange exchange, int status, byte[] body) throws IOException {
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    if (status == 503) {
      exchange.getResponseHeaders().set("Retry-After", "1");
    }
    exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
    if (body.length > 0) {
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
    }
  }

  @Override
  public void close() {
    server.stop(0);
    threads.shutdownNow();
  }
}
