package org.casebook.banknote.wire;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import org.casebook.banknote.FileContext;
import org.casebook.banknote.Note;
import org.casebook.banknote.NoteJson;
import org.casebook.core.Enums;
import org.casebook.core.InvalidInputException;
import org.casebook.core.Json;

/**
 * The agent's side of the collector's HTTP API: posts batches of notes (each already JSON, {@link
 * #json}) to {@code POST /api/banknotes/batches} and pieces of FSN files to {@code POST
 * /api/banknotes/fsn}, and says what became of them: acknowledged (durable), refused (the server
 * named what is wrong; a retry would be refused again), or worth retrying (the server is away, busy
 * or failing).
 */
public final class CollectorClient {
  /** What happened to one batch. */
  public sealed interface Outcome permits Acked, Refused, Retry {}

  /** Every note is durable in HBase; {@code stored} of them were stored. */
  public record Acked(int stored) implements Outcome {}

  /** The collector refused the batch as it is: sending it again would not help. */
  public record Refused(String reason) implements Outcome {}

  /** The collector is away, busy or failing: worth sending again. */
  public record Retry(String reason) implements Outcome {}

  private static final Duration TIMEOUT = Duration.ofSeconds(60);

  private final HttpClient http;
  private final URI batches;
  private final String fsn;
  private final String token;

  /**
   * A client of the collector at {@code server}, with {@code token} as bearer token if not null.
   */
  public CollectorClient(HttpClient http, URI server, String token) {
    this.http = Objects.requireNonNull(http, "http is null");
    String base = server.toString();
    String api = (base.endsWith("/") ? base : base + "/") + "api/banknotes/";
    this.batches = URI.create(api + "batches");
    this.fsn = api + "fsn";
    this.token = token;
  }

  public URI target() {
    return batches;
  }

  /** {@code note} as one item of a batch: its JSON, UTF-8. */
  public static byte[] json(Note note) {
    return Json.writeBytes(NoteJson.of(note));
  }

  /**
   * Sends one batch of notes, each as {@link #json} made it; throws only for misconfiguration no
   * retry can fix (wrong URL, token).
   */
  public Outcome send(List<byte[]> notes) throws InterruptedException {
    ByteArrayOutputStream body = new ByteArrayOutputStream(notes.size() * 400 + 16);
    body.writeBytes("{\"notes\":[".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
    for (int i = 0; i < notes.size(); i++) {
      if (i > 0) {
        body.write(',');
      }
      body.writeBytes(notes.get(i));
    }
    body.writeBytes("]}".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
    HttpRequest.Builder req =
        HttpRequest.newBuilder(batches)
            .timeout(TIMEOUT)
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofByteArray(body.toByteArray()));
    return post(req, batches, notes.size());
  }

  /**
   * Sends a piece of an FSN file as it is ({@link org.casebook.banknote.fsn.FsnFile#chunk}): its
   * first record is record {@code first} of {@code source}; {@code context} is what the agent's
   * options say about the file, so the collector reads the records exactly as the agent did.
   * Acknowledged with the number of notes the collector stored.
   */
  public Outcome sendFsn(String source, long first, byte[] piece, FileContext context)
      throws InterruptedException {
    StringBuilder q = new StringBuilder(fsn);
    q.append("?source=").append(encode(source)).append("&first=").append(first);
    if (context.branch() != null) {
      q.append("&branch=").append(encode(context.branch()));
    }
    if (context.kind() != null) {
      q.append("&kind=").append(Enums.label(context.kind()));
    }
    if (context.operation() != null) {
      q.append("&operation=").append(Enums.label(context.operation()));
    }
    if (context.device() != null) {
      q.append("&device=").append(encode(context.device()));
    }
    q.append("&zone=").append(encode(context.zone().getId()));
    URI target = URI.create(q.toString());
    HttpRequest.Builder req =
        HttpRequest.newBuilder(target)
            .timeout(TIMEOUT)
            .header("Content-Type", "application/octet-stream")
            .POST(HttpRequest.BodyPublishers.ofByteArray(piece));
    return post(req, target, -1);
  }

  private static String encode(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
  }

  /** Posts; {@code count} is what an acknowledgement stores, or -1 to read it from the answer. */
  private Outcome post(HttpRequest.Builder req, URI target, int count) throws InterruptedException {
    if (token != null) {
      req.header("Authorization", "Bearer " + token);
    }
    HttpResponse<String> r;
    try {
      r = http.send(req.build(), HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      if (untrustedCertificate(e)) {
        // Like a wrong token: no retry makes a certificate trusted, so waiting would hide it.
        throw new InvalidInputException(
            "ca-file",
            "the collector at "
                + target
                + " presented a certificate this agent does not trust"
                + " (give --ca-file the CA that signed it, and --server the name it was issued"
                + " for): "
                + e.getMessage());
      }
      return new Retry("cannot reach " + target + ": " + e);
    }
    int status = r.statusCode();
    if (status == 200) {
      if (count >= 0) {
        return new Acked(count);
      }
      try {
        JsonNode stored = Json.mapper().readTree(r.body()).get("stored");
        if (stored != null && stored.isInt()) {
          return new Acked(stored.asInt());
        }
      } catch (IOException e) {
        // Falls through: an answer without a count is not an acknowledgement.
      }
      return new Retry("HTTP 200 without a count of stored notes: " + message(r.body()));
    }
    if (status == 401 || status == 403) {
      throw new InvalidInputException(
          "token", "the collector refused the agent's token (" + status + "): " + r.body());
    }
    if (status == 404 || status == 405) {
      throw new InvalidInputException(
          "server", "no banknote collector at " + target + " (HTTP " + status + ")");
    }
    if (status == 400 || status == 413) {
      return new Refused("HTTP " + status + ": " + message(r.body()));
    }
    return new Retry("HTTP " + status + ": " + message(r.body()));
  }

  /**
   * True when a TLS handshake failed on the server's certificate (an unknown issuer, a wrong host,
   * an expired certificate); false for a handshake cut short, which a retry may get through.
   */
  static boolean untrustedCertificate(IOException e) {
    boolean handshake = false;
    for (Throwable t = e; t != null; t = t.getCause()) {
      handshake |= t instanceof javax.net.ssl.SSLHandshakeException;
      if (handshake && t instanceof java.security.cert.CertificateException) {
        return true;
      }
    }
    return false;
  }

  private static String message(String body) {
    try {
      JsonNode n = Json.mapper().readTree(body);
      String field = n.path("field").asText("");
      return (field.isEmpty() ? "" : field + ": ") + n.path("error").asText(body);
    } catch (IOException e) {
      return body.length() > 500 ? body.substring(0, 500) : body;
    }
  }
}
