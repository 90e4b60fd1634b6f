package org.casebook.archive.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.Optional;
import org.casebook.archive.ArchiveService;
import org.casebook.archive.Layout;
import org.casebook.archive.gen.ArchiveGenerator;
import org.casebook.core.HBaseRuntime;
import org.casebook.core.Json;
import org.casebook.core.cli.Progress;
import org.casebook.core.http.HttpApiServer;
import org.casebook.core.testing.EmbeddedHBase;
import org.casebook.core.testing.TestIds;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(EmbeddedHBase.class)
class ArchiveRoutesIT {
  private final HttpClient client = HttpClient.newHttpClient();

  @Test
  void usersStatusesAndStatusByIdOverHttp(HBaseRuntime runtime) throws Exception {
    String ns = "archive_" + TestIds.unique("h").replace('-', '_');
    Path dir = EmbeddedHBase.scratchDir(ns);
    ArchiveGenerator.write(new ArchiveGenerator.Spec(2, 5, 6, false, 0, 9), dir.resolve("in"));
    ArchiveService archive = new ArchiveService(runtime.connection(), ns);
    archive.prepare(new Layout(2, true), true);
    archive.importWithPuts(ArchiveService.inputFiles(dir.resolve("in")), dir.resolve("q"), 1, "test",
        Progress.logging("t", 0, "bytes"));
    try (HttpApiServer server = new HttpApiServer("127.0.0.1", 0, Optional.empty(), 2)) {
      ArchiveRoutes.register(archive, server);
      server.start();
      String base = "http://127.0.0.1:" + server.port() + "/api/archive/";
      String uid = ArchiveGenerator.userId(1, 2, 5);
      JsonNode user = ok(get(base + "users/" + uid));
      assertThat(user.get("uid").asText()).isEqualTo(uid);
      JsonNode page = ok(get(base + "users/" + uid + "/statuses?limit=2"));
      assertThat(page.get("statuses")).hasSize(2);
      long newest = page.get("statuses").get(0).get("id").asLong();
      assertThat(page.get("statuses").get(1).get("id").asLong()).isLessThan(newest);
      if (!page.get("next").isNull()) {
        JsonNode next = ok(get(base + "users/" + uid + "/statuses?limit=2&cursor=" + page.get("next").asText()));
        assertThat(next.get("statuses").get(0).get("id").asLong()).isLessThan(page.get("statuses").get(1).get("id").asLong());
      }
      assertThat(ok(get(base + "statuses/" + newest)).get("uid").asText()).isEqualTo(uid);
      assertThat(get(base + "statuses/999").statusCode()).isEqualTo(404);
      assertThat(get(base + "users/1").statusCode()).isEqualTo(404);
      HttpResponse<String> bad = get(base + "statuses/abc");
      assertThat(bad.statusCode()).isEqualTo(400);
      assertThat(Json.mapper().readTree(bad.body()).get("field").asText()).isEqualTo("id");
      assertThat(Json.mapper().readTree(get(base + "users/x/statuses").body()).get("field").asText()).isEqualTo("uid");
    }
  }

  private HttpResponse<String> get(String url) throws Exception {
    return client.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
  }

  private static JsonNode ok(HttpResponse<String> r) throws Exception {
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    return Json.mapper().readTree(r.body());
  }
}
