package org.casebook.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.casebook.core.AccessRule;
import org.casebook.core.CasebookSystem;
import org.casebook.core.HBaseRuntime;
import org.casebook.core.Json;
import org.casebook.core.testing.EmbeddedHBase;
import org.casebook.core.testing.ServedSystem;
import org.casebook.core.testing.TestIds;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Backups through the command line, judged by what the systems answer over their own APIs: the
 * answers at backup time come back after the data changed and the backup was restored in place, and
 * again after the backup went to a directory, was deleted here, imported and cloned into a new
 * namespace. Each system runs in a namespace of this test's, so restoring touches no other test's
 * tables.
 */
@ExtendWith(EmbeddedHBase.class)
class BackupIT {
  private final HttpClient client = HttpClient.newHttpClient();
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();
  private PrintStream oldOut;
  private PrintStream oldErr;
  private HBaseRuntime runtime;
  private CasebookSystem tsdb;
  private CasebookSystem docs;
  private String tsdbNamespace;
  private String docsNamespace;
  private final long t0 = 1_790_000_000L;
  private static final String DOC_ID = "https://bk.example.com/a_b/中文,1";

  @BeforeEach
  void capture(HBaseRuntime runtime) {
    this.runtime = runtime;
    oldOut = System.out;
    oldErr = System.err;
    System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
    System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
    List<CasebookSystem> all = Systems.load();
    tsdb = all.stream().filter(s -> s.descriptor().name().equals("tsdb")).findFirst().orElseThrow();
    docs = all.stream().filter(s -> s.descriptor().name().equals("docs")).findFirst().orElseThrow();
    tsdbNamespace = namespace("bkt");
    docsNamespace = namespace("bkd");
  }

  @AfterEach
  void release() {
    System.setOut(oldOut);
    System.setErr(oldErr);
  }

  private static String namespace(String prefix) {
    return TestIds.unique(prefix).replace('-', '_');
  }

  /** The CLI attached to the test's HBase, with both systems in this test's namespaces. */
  private int cli(String... args) {
    List<String> full =
        new ArrayList<>(
            List.of(
                "--data",
                EmbeddedHBase.dataDir().toString(),
                "--set",
                "tsdb.namespace=" + tsdbNamespace,
                "--set",
                "docs.namespace=" + docsNamespace));
    full.addAll(List.of(args));
    return Main.run(full.toArray(String[]::new));
  }

  private ServedSystem serveTsdb(String namespace) {
    return ServedSystem.start(
        runtime, tsdb, AccessRule.open(), Map.of("tsdb.namespace", namespace));
  }

  private ServedSystem serveDocs() {
    return ServedSystem.start(
        runtime, docs, AccessRule.open(), Map.of("docs.namespace", docsNamespace));
  }

  private HttpResponse<String> send(String method, String url, String body) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url));
    b.method(
        method,
        body == null
            ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofString(body));
    if (body != null) {
      b.header("Content-Type", "application/json");
    }
    return client.send(b.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
  }

  private void put(ServedSystem s, long ts, int value) throws Exception {
    String body =
        "{\"metric\":\"bk.load\",\"timestamp\":%d,\"value\":%d,\"tags\":{\"host\":\"web01\"}}"
            .formatted(ts, value);
    HttpResponse<String> r = send("POST", s.url("/api/put?sync"), body);
    assertThat(r.statusCode()).as(r.body()).isEqualTo(204);
  }

  private JsonNode query(ServedSystem s) throws Exception {
    HttpResponse<String> r =
        send(
            "GET",
            s.url(
                "/api/query?start="
                    + t0
                    + "&end="
                    + (t0 + 3600)
                    + "&m="
                    + URLEncoder.encode("sum:bk.load{host=*}", StandardCharsets.UTF_8)),
            null);
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    return Json.mapper().readTree(r.body());
  }

  private String docUrl(ServedSystem s) {
    return s.url("/api/docs/blog/" + URLEncoder.encode(DOC_ID, StandardCharsets.UTF_8));
  }

  private void writeDoc(ServedSystem s, String title) throws Exception {
    String body =
        "{\"title\":\"%s\",\"content\":\"正文\",\"url\":\"%s\",\"created\":\"2026-09-01T08:00:00Z\"}"
            .formatted(title, DOC_ID);
    HttpResponse<String> r = send("PUT", docUrl(s), body);
    assertThat(r.statusCode()).as(r.body()).isIn(200, 201);
  }

  private JsonNode readDoc(ServedSystem s) throws Exception {
    HttpResponse<String> r = send("GET", docUrl(s), null);
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    return Json.mapper().readTree(r.body());
  }

  @Test
  void restoredSystemsAnswerAsAtBackupTimeInPlaceAndAfterAnExportAndImport() throws Exception {
    String backup = TestIds.unique("bk");
    JsonNode tsdbThen;
    JsonNode docThen;
    try (ServedSystem t = serveTsdb(tsdbNamespace);
        ServedSystem d = serveDocs()) {
      put(t, t0, 10);
      put(t, t0 + 60, 20);
      writeDoc(d, "第一版");
      tsdbThen = query(t);
      docThen = readDoc(d);
    }
    assertThat(tsdbThen.toString()).contains("bk.load");

    // The test's CLI is attached to the test JVM's HBase, as to a running serve: refused without
    // --online, and nothing taken.
    assertThat(cli("backup", "create", "--system", "tsdb", "--system", "docs", backup))
        .isEqualTo(4);
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("--online");
    assertThat(cli("backup", "create", "--system", "tsdb", "--system", "docs", "--online", backup))
        .as(err.toString(StandardCharsets.UTF_8))
        .isZero();
    assertThat(cli("backup", "create", "--system", "tsdb", "--online", backup)).isEqualTo(4);
    assertThat(cli("backup", "create", "--system", "tsdb", "not a name")).isEqualTo(2);
    assertThat(cli("backup", "create", "--system", "nosuch", "--online", "x1")).isEqualTo(2);

    out.reset();
    assertThat(cli("backup", "list", "--json")).isZero();
    JsonNode listed = null;
    for (JsonNode b : Json.mapper().readTree(out.toString(StandardCharsets.UTF_8)).get("backups")) {
      if (b.get("name").asText().equals(backup)) {
        listed = b;
      }
    }
    assertThat(listed).as("backup listed").isNotNull();
    assertThat(listed.get("systems").toString()).contains("tsdb", "docs");
    assertThat(listed.get("bytes").asLong()).isPositive();
    assertThat(listed.get("tables").toString()).contains(tsdbNamespace + ":", docsNamespace + ":");

    // Change and add data after the backup; the answers differ now.
    try (ServedSystem t = serveTsdb(tsdbNamespace);
        ServedSystem d = serveDocs()) {
      put(t, t0, 99);
      put(t, t0 + 120, 30);
      writeDoc(d, "第二版");
      assertThat(query(t)).isNotEqualTo(tsdbThen);
      assertThat(readDoc(d)).isNotEqualTo(docThen);
    }

    assertThat(cli("backup", "restore", "nosuch")).as("not found before refused").isEqualTo(3);
    assertThat(cli("backup", "restore", backup)).as("refused while attached").isEqualTo(4);
    assertThat(cli("backup", "restore", backup, "--system", "weibo", "--online")).isEqualTo(2);
    assertThat(cli("backup", "restore", backup, "--online"))
        .as(err.toString(StandardCharsets.UTF_8))
        .isZero();
    try (ServedSystem t = serveTsdb(tsdbNamespace);
        ServedSystem d = serveDocs()) {
      assertThat(query(t)).isEqualTo(tsdbThen);
      assertThat(readDoc(d)).isEqualTo(docThen);
    }
    // Cloning over the live tables is refused; so is one clone of two systems' namespaces.
    assertThat(cli("backup", "restore", backup, "--system", "tsdb", "--as", tsdbNamespace))
        .isEqualTo(4);
    assertThat(cli("backup", "restore", backup, "--as", namespace("bkx"))).isEqualTo(2);

    assertThat(cli("backup", "delete", backup)).isZero();
    assertThat(cli("backup", "delete", backup)).isEqualTo(3);

    // A copy elsewhere (one system: each table is a MapReduce job each way).
    String copy = TestIds.unique("bkcopy");
    assertThat(cli("backup", "create", "--system", "tsdb", "--online", copy)).isZero();
    Path dir = EmbeddedHBase.scratchDir("backup-export");
    assertThat(cli("backup", "export", copy, "--to", dir.toString(), "--mappers", "1"))
        .as(err.toString(StandardCharsets.UTF_8))
        .isZero();
    try (var listing = Files.list(dir.resolve(".hbase-snapshot"))) {
      assertThat(
              listing.map(p -> p.getFileName().toString()).filter(n -> !n.startsWith(".")).toList())
          .allMatch(n -> n.startsWith("cb." + copy + "."))
          .as("tsdb's uid, data, annotation, series index and rollup tables")
          .hasSize(5);
    }
    assertThat(cli("backup", "export", copy, "--to", dir.toString())).isEqualTo(4);
    assertThat(cli("backup", "delete", copy)).isZero();
    assertThat(cli("backup", "import", "--from", dir.resolve("nothing").toString())).isEqualTo(3);
    assertThat(cli("backup", "import", "--from", dir.toString(), copy, "--mappers", "1"))
        .as(err.toString(StandardCharsets.UTF_8))
        .isZero();
    assertThat(cli("backup", "import", "--from", dir.toString(), copy)).isEqualTo(4);
    String cloned = namespace("bkc");
    assertThat(cli("backup", "restore", copy, "--as", cloned))
        .as(err.toString(StandardCharsets.UTF_8))
        .isZero();
    try (ServedSystem t = serveTsdb(cloned)) {
      assertThat(query(t)).isEqualTo(tsdbThen);
    }
    assertThat(cli("backup", "delete", copy)).isZero();
  }
}
