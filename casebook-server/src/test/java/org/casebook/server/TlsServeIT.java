package org.casebook.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import crawlercommons.urlfrontier.URLFrontierGrpc;
import crawlercommons.urlfrontier.Urlfrontier.Empty;
import crawlercommons.urlfrontier.Urlfrontier.StringList;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import org.casebook.core.CasebookSystem;
import org.casebook.core.HBaseRuntime;
import org.casebook.core.Json;
import org.casebook.core.Platform;
import org.casebook.core.SystemDescriptor;
import org.casebook.core.net.ListenerSpec;
import org.casebook.core.schema.SchemaManager;
import org.casebook.core.testing.EmbeddedHBase;
import org.casebook.core.testing.TestCertificates;
import org.casebook.core.testing.TestIds;
import org.casebook.core.tls.ClientTls;
import org.casebook.core.tls.ServerTls;
import org.casebook.core.tls.TlsFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The whole server over TLS, as {@code serve --tls-cert … --tls-key …} runs it: HTTPS with health
 * saying {@code "transport":"tls"}, an OpenTSDB telnet put over an {@link SSLSocket} read back over
 * HTTPS, and URLFrontier gRPC with the CA; plain text to each port gets nowhere.
 */
@ExtendWith(EmbeddedHBase.class)
class TlsServeIT {
  @Test
  void everyListenerSpeaksTls(HBaseRuntime runtime) throws Exception {
    Path dir = EmbeddedHBase.scratchDir(TestIds.unique("tls-serve"));
    TestCertificates ca =
        TestCertificates.authority(Files.createDirectories(dir.resolve("ca")), "Serve Test CA");
    TestCertificates.Issued issued = ca.server();
    List<CasebookSystem> systems = Systems.load();
    new SchemaManager(runtime.connection()).ensureAll(Systems.allTables(systems));
    Platform.Builder builder =
        Platform.builder(runtime, dir)
            .tls(
                ServerTls.start(
                    TlsFiles.pem(issued.chainPem(), issued.keyPem()), Duration.ofSeconds(10)));
    for (CasebookSystem s : systems) {
      SystemDescriptor d = s.descriptor();
      for (ListenerSpec l : d.listeners()) {
        builder.port(l.portOption(d.name(), d.listeners().size() == 1), 0);
      }
    }
    try (Platform platform = builder.build();
        Server server = Server.start(systems, platform, 0, 4)) {
      HttpClient https =
          ClientTls.httpClient(ca.caPem()).connectTimeout(Duration.ofSeconds(5)).build();
      String base = "https://localhost:" + server.port();
      JsonNode health = get(https, base + "/api/health");
      assertThat(health.get("transport").asText()).isEqualTo("tls");
      assertThat(health.get("certificate").get("serial").asText()).isEqualTo(issued.serial());
      assertThat(server.transport()).isEqualTo("tls");

      String metric = TestIds.unique("tls.points").replace('-', '.');
      long t = System.currentTimeMillis() / 1000 - 3600;
      int telnet = server.listeners().get("tsdb telnet").address().getPort();
      SSLContext context = ClientTls.context(ca.caPem());
      try (SSLSocket s = (SSLSocket) context.getSocketFactory().createSocket()) {
        s.connect(new InetSocketAddress("localhost", telnet), 5000);
        s.setSSLParameters(ClientTls.parameters(context));
        s.startHandshake();
        OutputStream out = s.getOutputStream();
        out.write(
            ("put " + metric + " " + t + " 42 host=a\nexit\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
        s.setSoTimeout(10_000);
        // The server closes after "exit", the put stored; a refused put would have said why.
        assertThat(new String(s.getInputStream().readAllBytes(), StandardCharsets.UTF_8)).isEmpty();
      }
      // A telnet put is not acknowledged: the point is read once the store has written it.
      String query =
          base + "/api/query?start=" + (t - 60) + "&end=" + (t + 60) + "&m=sum:" + metric;
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
      HttpResponse<String> answer = send(https, query);
      while ((answer.statusCode() != 200 || Json.mapper().readTree(answer.body()).isEmpty())
          && System.nanoTime() < deadline) {
        Thread.sleep(200);
        answer = send(https, query);
      }
      assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
      JsonNode series = Json.mapper().readTree(answer.body());
      assertThat(series.get(0).get("dps").get(Long.toString(t)).asLong()).isEqualTo(42);

      int grpcPort = server.listeners().get("frontier grpc").address().getPort();
      ManagedChannel secure =
          NettyChannelBuilder.forAddress("localhost", grpcPort)
              .sslContext(GrpcSslContexts.forClient().trustManager(ca.caPem().toFile()).build())
              .build();
      ManagedChannel plain =
          ManagedChannelBuilder.forAddress("127.0.0.1", grpcPort).usePlaintext().build();
      try {
        StringList nodes =
            URLFrontierGrpc.newBlockingStub(secure)
                .withDeadlineAfter(10, TimeUnit.SECONDS)
                .listNodes(Empty.getDefaultInstance());
        assertThat(nodes.getValuesList()).contains("127.0.0.1:" + grpcPort);
        assertThatThrownBy(
                () ->
                    URLFrontierGrpc.newBlockingStub(plain)
                        .withDeadlineAfter(5, TimeUnit.SECONDS)
                        .listNodes(Empty.getDefaultInstance()))
            .isInstanceOf(StatusRuntimeException.class);
      } finally {
        secure.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        plain.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
      }

      HttpClient plainHttp = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
      assertThatThrownBy(
              () ->
                  plainHttp.send(
                      HttpRequest.newBuilder(
                              URI.create("http://127.0.0.1:" + server.port() + "/api/health"))
                          .timeout(Duration.ofSeconds(10))
                          .build(),
                      HttpResponse.BodyHandlers.ofString()))
          .isInstanceOf(java.io.IOException.class);
    }
  }

  private static HttpResponse<String> send(HttpClient client, String url) throws Exception {
    return client.send(
        HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static JsonNode get(HttpClient client, String url) throws Exception {
    HttpResponse<String> r = send(client, url);
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    return Json.mapper().readTree(r.body());
  }
}
