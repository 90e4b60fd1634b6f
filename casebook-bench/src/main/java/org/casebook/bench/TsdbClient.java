package org.casebook.bench;

import java.io.BufferedOutputStream;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import org.casebook.core.Threads;

/**
 * A time-series system under test as its users reach it: put lines over its telnet-style port, and
 * OpenTSDB's HTTP API. The same for Casebook and for OpenTSDB.
 *
 * @param name {@code casebook} or {@code opentsdb}, as the figures name it
 * @param telnet where its telnet-style lines are taken
 * @param http its HTTP API, {@code http://host:port} without a trailing slash
 */
record TsdbClient(String name, InetSocketAddress telnet, String http) {
  private static final HttpClient CLIENT =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

  TsdbClient {
    Objects.requireNonNull(name, "name is null");
    Objects.requireNonNull(telnet, "telnet is null");
    Objects.requireNonNull(http, "http is null");
  }

  /** {@code GET} of a path with its query string. */
  HttpResponse<byte[]> get(String pathAndQuery) throws IOException, InterruptedException {
    return CLIENT.send(
        HttpRequest.newBuilder(URI.create(http + pathAndQuery))
            .timeout(Duration.ofSeconds(60))
            .GET()
            .build(),
        HttpResponse.BodyHandlers.ofByteArray());
  }

  /** {@code POST} of a JSON body. */
  HttpResponse<byte[]> post(String pathAndQuery, String body)
      throws IOException, InterruptedException {
    return CLIENT.send(
        HttpRequest.newBuilder(URI.create(http + pathAndQuery))
            .timeout(Duration.ofSeconds(60))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build(),
        HttpResponse.BodyHandlers.ofByteArray());
  }

  /** A query-string value, URL-encoded. */
  static String enc(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8);
  }

  /**
   * Sends the lines over one connection, then {@code version}, and waits for its answer: the server
   * has then taken every line before it (a put has no reply). Returns the error lines seen.
   */
  int sendLines(List<String> lines) throws IOException {
    return sendLines(lines.iterator());
  }

  /**
   * As {@link #sendLines(List)}, the lines taken from {@code lines} as they are sent: a data set of
   * millions of points need not be held in memory.
   */
  int sendLines(Iterator<String> lines) throws IOException {
    try (Socket s = new Socket()) {
      s.connect(telnet, 10_000);
      s.setSoTimeout(600_000);
      BufferedReader in =
          new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
      int[] errors = {0};
      Thread reader =
          Threads.daemon("telnet-replies")
              .newThread(
                  () -> {
                    try {
                      String line;
                      while ((line = in.readLine()) != null) {
                        if (line.startsWith("Built")) {
                          return;
                        }
                        if (line.startsWith("put:") || line.startsWith("unknown")) {
                          errors[0]++;
                        }
                      }
                    } catch (IOException e) {
                      throw new UncheckedIOException(e);
                    }
                  });
      reader.start();
      OutputStream out = new BufferedOutputStream(s.getOutputStream(), 1 << 16);
      while (lines.hasNext()) {
        out.write(lines.next().getBytes(StandardCharsets.UTF_8));
      }
      out.write("version\n".getBytes(StandardCharsets.UTF_8));
      out.flush();
      reader.join(600_000);
      return errors[0];
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
  }
}
