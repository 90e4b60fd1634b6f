package org.casebook.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import crawlercommons.urlfrontier.URLFrontierGrpc;
import crawlercommons.urlfrontier.Urlfrontier;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.MetadataUtils;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.net.Socket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.casebook.core.AccessRule;
import org.casebook.core.CasebookSystem;
import org.casebook.core.HBaseRuntime;
import org.casebook.core.Json;
import org.casebook.core.Platform;
import org.casebook.core.access.AccessFile;
import org.casebook.core.access.AuditTable;
import org.casebook.core.net.ListenerSpec;
import org.casebook.core.testing.EmbeddedHBase;
import org.casebook.core.testing.TestIds;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Every system served with an access file: the same requests from an anonymous caller and from
 * read, write and admin principals get exactly the answers the grants declare on each system's
 * routes, on OpenTSDB's telnet and on URLFrontier's gRPC; banknote and document reads are closed to
 * anonymous callers; the audit trail names the caller of each write, delete, backup and restore.
 */
@ExtendWith(EmbeddedHBase.class)
class AccessControlIT {
  private static final long T = 1_790_000_000L;
  private static final Map<String, String> TOKENS = new LinkedHashMap<>();

  static {
    TOKENS.put("anonymous", null);
    TOKENS.put("reader", "reader-token");
    TOKENS.put("writer", "writer-token");
    TOKENS.put("admin", "admin-token");
  }

  private final HttpClient client = HttpClient.newHttpClient();

  private record Call(String system, String action, String method, String path, String body) {}

  private static AccessRule accessFile(Path dir) throws Exception {
    Files.writeString(dir.resolve("admin.token"), "admin-token\n", StandardCharsets.UTF_8);
    String json =
        """
        {"anonymous": {"tsdb": "read", "weibo": "read", "frontier": "read", "trails": "read",
                       "archive": "read"},
         "roles": {"reader": {"*": "read"}, "writer": {"*": "write"}},
         "principals": [
           {"name": "reader", "token_sha256": "%s", "roles": ["reader"]},
           {"name": "writer", "token_sha256": "%s", "roles": ["writer"]},
           {"name": "admin", "token_file": "admin.token", "grants": {"*": "admin"}}]}
        """
            .formatted(hex("reader-token"), hex("writer-token"));
    Path file = dir.resolve("access.json");
    Files.writeString(file, json, StandardCharsets.UTF_8);
    return AccessFile.read(file);
  }

  private static String hex(String token) {
    return HexFormat.of().formatHex(AccessRule.sha256(token));
  }

  private HttpResponse<String> send(String base, Call c, String token) throws Exception {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create(base + c.path()))
            .timeout(Duration.ofSeconds(60))
            .method(
                c.method(),
                c.body() == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(c.body()));
    if (c.body() != null) {
      b.header("Content-Type", "application/json");
    }
    if (token != null) {
      b.header("Authorization", "Bearer " + token);
    }
    return client.send(b.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
  }

  /** What {@code caller} must get: the route's answer when granted, else 401 or 403. */
  private static boolean granted(String caller, Call c) {
    return switch (caller) {
      case "admin" -> true;
      case "writer" -> !c.action().equals("admin");
      case "reader" -> c.action().equals("read");
      default -> c.action().equals("read") && !List.of("banknote", "docs").contains(c.system());
    };
  }

  @Test
  void grantsDecideEveryAnswerOnEveryProtocolAndTheTrailNamesTheCaller(HBaseRuntime runtime)
      throws Exception {
    Path dir = EmbeddedHBase.scratchDir("access-control");
    AccessRule rule = accessFile(dir);
    List<CasebookSystem> systems = Systems.load();
    Platform.Builder builder =
        Platform.builder(runtime, dir)
            .access(rule)
            .auditTrail(AuditTable.DEFAULT_NAME, Duration.ofDays(30));
    for (CasebookSystem s : systems) {
      List<ListenerSpec> ls = s.descriptor().listeners();
      for (ListenerSpec l : ls) {
        builder.port(l.portOption(s.descriptor().name(), ls.size() == 1), 0);
      }
    }
    String user = TestIds.unique("u");
    String metric = TestIds.unique("ac.m");
    String backup = TestIds.unique("acb");
    java.time.Instant started = java.time.Instant.now().minusSeconds(1);
    List<Call> calls =
        List.of(
            new Call("tsdb", "read", "GET", "/api/aggregators", null),
            new Call(
                "tsdb",
                "write",
                "POST",
                "/api/put?sync",
                "{\"metric\":\"%s\",\"timestamp\":%d,\"value\":1,\"tags\":{\"h\":\"a\"}}"
                    .formatted(metric, T)),
            new Call(
                "tsdb",
                "admin",
                "GET",
                "/api/query?start=%d&end=%d&delete=true&m=%s"
                    .formatted(
                        T, T + 10, URLEncoder.encode("sum:" + metric, StandardCharsets.UTF_8)),
                null),
            new Call("weibo", "read", "GET", "/api/weibo/users/" + user + "/following", null),
            new Call("weibo", "write", "PUT", "/api/weibo/users/" + user + "/following/x", null),
            new Call("banknote", "read", "GET", "/api/banknotes/watch", null),
            new Call(
                "banknote",
                "write",
                "POST",
                "/api/banknotes/watch",
                "{\"pattern\":\"AC12?????9\",\"note\":\"n\",\"addedBy\":\"it\"}"),
            new Call("docs", "read", "GET", "/api/docs/_types", null),
            new Call(
                "docs",
                "admin",
                "PUT",
                "/api/docs/_types/ac" + Long.toString(System.nanoTime() % 1_000_000L),
                "{\"fields\":[{\"name\":\"title\",\"kind\":\"TEXT\",\"family\":\"BI\"}]}"),
            new Call(
                "trails",
                "write",
                "POST",
                "/api/trails/events",
                "{\"uid\":\"%s\",\"type\":\"login\",\"ts\":\"2026-09-02T10:00:00Z\",\"device\":\"stb\",\"ip\":\"10.0.0.9\"}\n"
                    .formatted(user)),
            new Call("trails", "admin", "DELETE", "/api/trails/" + user, null),
            new Call("frontier", "read", "GET", "/api/frontier/channels", null),
            new Call("archive", "read", "GET", "/api/archive/imports", null),
            new Call(
                "platform",
                "admin",
                "POST",
                "/api/backups",
                "{\"name\":\"%s\",\"systems\":[\"weibo\"]}".formatted(backup)),
            new Call("platform", "admin", "GET", "/api/audit?who=nobody", null));
    new org.casebook.core.schema.SchemaManager(runtime.connection())
        .ensureAll(Systems.allTables(systems));
    try (Platform platform = builder.build();
        Server server =
            Server.start(systems, platform, 0, 4, Map.of("tsdb.allow-delete", "true"))) {
      String base = "http://127.0.0.1:" + server.port();
      List<String> wrong = new ArrayList<>();
      for (var t : TOKENS.entrySet()) {
        for (Call c : calls) {
          HttpResponse<String> r = send(base, c, t.getValue());
          int want = granted(t.getKey(), c) ? -1 : t.getValue() == null ? 401 : 403;
          boolean ok =
              want < 0 ? r.statusCode() >= 200 && r.statusCode() < 300 : r.statusCode() == want;
          if (!ok) {
            wrong.add(t.getKey() + " " + c + " -> " + r.statusCode() + " " + r.body());
          }
          if (want > 0) {
            assertThat(Json.mapper().readTree(r.body()).get("error").asText())
                .as("a refusal is JSON")
                .isNotEmpty();
          }
        }
      }
      assertThat(wrong).as("answers other than the grants say").isEmpty();

      // Every route of every system refuses whom its declared action excludes, before its handler.
      for (CasebookSystem sys : systems) {
        String name = sys.descriptor().name();
        if (name.equals("echo")) {
          continue; // the test-only system: the access file names no grant of its own for it
        }
        for (org.casebook.core.http.RouteSpec route : sys.descriptor().routes()) {
          Call c =
              new Call(
                  name,
                  route.action().label(),
                  route.method(),
                  route.pattern().replaceAll("\\{[^}]+}", "x"),
                  route.method().equals("GET") ? null : "{}");
          for (var t : TOKENS.entrySet()) {
            if (granted(t.getKey(), c)) {
              continue;
            }
            int got = send(base, c, t.getValue()).statusCode();
            int want = t.getValue() == null ? 401 : 403;
            if (got != want) {
              wrong.add(t.getKey() + " " + route + " of " + name + " -> " + got);
            }
          }
        }
      }
      assertThat(wrong).as("routes answering a caller their action excludes").isEmpty();
      assertThat(send(base, calls.get(0), "not-a-token").statusCode())
          .as("an unknown token is told so even where anonymous callers pass")
          .isEqualTo(401);

      // OpenTSDB's telnet: puts need a write grant, given by an auth line.
      int telnet = server.listeners().get("tsdb telnet").address().getPort();
      try (Socket s = new Socket("127.0.0.1", telnet);
          PrintWriter out =
              new PrintWriter(
                  new java.io.OutputStreamWriter(s.getOutputStream(), StandardCharsets.UTF_8),
                  true);
          BufferedReader in =
              new BufferedReader(
                  new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8))) {
        String put = "put " + metric + " " + (T + 1) + " 2 h=a";
        out.println(put);
        assertThat(in.readLine()).startsWith("put: writes need a token");
        out.println("auth reader-token");
        assertThat(in.readLine()).isEqualTo("auth: ok");
        out.println(put);
        assertThat(in.readLine()).isEqualTo("put: reader may not write here");
        out.println("auth writer-token");
        assertThat(in.readLine()).isEqualTo("auth: ok");
        out.println(put);
        out.println("version");
        assertThat(in.readLine()).as("a granted put answers nothing").contains("net.opentsdb");
      }

      // URLFrontier's gRPC: call credentials as the authorization metadata.
      int grpc = server.listeners().get("frontier grpc").address().getPort();
      ManagedChannel ch =
          ManagedChannelBuilder.forAddress("127.0.0.1", grpc).usePlaintext().build();
      try {
        assertThat(frontier(ch, null).listCrawls(Urlfrontier.Local.getDefaultInstance()))
            .isNotNull();
        Urlfrontier.DeleteCrawlMessage delete =
            Urlfrontier.DeleteCrawlMessage.newBuilder().setValue(TestIds.unique("crawl")).build();
        assertThatThrownBy(() -> frontier(ch, null).deleteCrawl(delete))
            .isInstanceOfSatisfying(
                StatusRuntimeException.class,
                e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNAUTHENTICATED));
        assertThatThrownBy(() -> frontier(ch, "writer-token").deleteCrawl(delete))
            .isInstanceOfSatisfying(
                StatusRuntimeException.class,
                e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.PERMISSION_DENIED));
        assertThat(frontier(ch, "admin-token").deleteCrawl(delete).getValue()).isZero();
      } finally {
        ch.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
      }

      // A restore from the CLI leaves its entry too.
      ByteArrayOutputStream cliOut = new ByteArrayOutputStream();
      String clone = TestIds.unique("acr").replace('-', '_');
      assertThat(cli(cliOut, "backup", "restore", backup, "--as", clone))
          .as(cliOut.toString(StandardCharsets.UTF_8))
          .isZero();
      assertThat(cli(cliOut, "backup", "delete", backup)).isZero();
      platform.auditTable().orElseThrow().flush();

      Map<String, List<String>> byCaller = new LinkedHashMap<>();
      for (String who :
          List.of(
              "writer", "admin", "reader", "anonymous", "cli:" + System.getProperty("user.name"))) {
        HttpResponse<String> r =
            send(
                base,
                new Call(
                    "platform",
                    "admin",
                    "GET",
                    "/api/audit?limit=1000&from="
                        + started
                        + "&who="
                        + URLEncoder.encode(who, StandardCharsets.UTF_8),
                    null),
                "admin-token");
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        List<String> entries = new ArrayList<>();
        for (JsonNode e : Json.mapper().readTree(r.body()).get("entries")) {
          entries.add(
              e.get("system").asText()
                  + " "
                  + e.get("action").asText()
                  + " "
                  + e.get("what").asText().replaceAll("\\?.*", "")
                  + " "
                  + e.get("outcome").asText());
        }
        byCaller.put(who, entries);
      }
      assertThat(byCaller.get("writer"))
          .contains(
              "tsdb write POST /api/put 204",
              "tsdb admin GET /api/query 403",
              "trails admin DELETE /api/trails/" + user + " 403",
              "frontier admin grpc DeleteCrawl PERMISSION_DENIED")
          .noneMatch(e -> e.contains(" read "));
      assertThat(byCaller.get("admin"))
          .contains(
              "tsdb admin GET /api/query 200",
              "trails admin DELETE /api/trails/" + user + " 200",
              "platform admin POST /api/backups 201",
              "frontier admin grpc DeleteCrawl OK");
      assertThat(byCaller.get("reader"))
          .contains("tsdb write telnet put 0 point(s) written, 1 put(s) refused");
      assertThat(byCaller.get("writer")).contains("tsdb write telnet put 1 point(s) written");
      assertThat(byCaller.get("anonymous"))
          .contains("banknote write POST /api/banknotes/watch 401");
      assertThat(byCaller.get("cli:" + System.getProperty("user.name")))
          .contains(
              "platform admin backup restore " + backup + " as " + clone + " ok",
              "platform admin backup delete " + backup + " ok");
    }
  }

  /** A URLFrontier client presenting {@code token} (none when null) as call credentials. */
  private static URLFrontierGrpc.URLFrontierBlockingStub frontier(ManagedChannel ch, String token) {
    URLFrontierGrpc.URLFrontierBlockingStub client =
        URLFrontierGrpc.newBlockingStub(ch).withDeadlineAfter(30, TimeUnit.SECONDS);
    if (token == null) {
      return client;
    }
    Metadata headers = new Metadata();
    headers.put(
        Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER), "Bearer " + token);
    return client.withInterceptors(MetadataUtils.newAttachHeadersInterceptor(headers));
  }

  private static int cli(ByteArrayOutputStream out, String... args) {
    return CapturedCli.run(out, List.of(args));
  }
}
