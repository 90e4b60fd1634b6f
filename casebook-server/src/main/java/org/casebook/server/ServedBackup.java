package org.casebook.server;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.casebook.core.ConflictException;
import org.casebook.core.InvalidInputException;
import org.casebook.core.Json;
import org.casebook.core.NotFoundException;
import org.casebook.core.PreconditionFailedException;
import org.casebook.core.StorageException;
import org.casebook.core.tls.ClientTls;

/**
 * {@code backup create} beside a running serve: the serve takes it ({@code POST /api/backups}), as
 * only it can pause its own writes; its answer is printed as a local backup's, its errors become
 * the CLI's.
 */
final class ServedBackup {
  private ServedBackup() {}

  static void take(URI serve, String name, List<String> systems, Path tokenFile, Path caFile) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("name", name);
    if (!systems.isEmpty()) {
      body.put("systems", systems);
    }
    HttpRequest.Builder req =
        HttpRequest.newBuilder(serve.resolve("/api/backups"))
            .timeout(Duration.ofMinutes(30))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(Json.write(body)));
    String token = token(tokenFile);
    if (token != null) {
      req.header("Authorization", "Bearer " + token);
    }
    HttpResponse<String> res;
    try {
      res =
          ClientTls.httpClient(caFile)
              .connectTimeout(Duration.ofSeconds(10))
              .build()
              .send(req.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    } catch (javax.net.ssl.SSLException e) {
      throw new PreconditionFailedException(
          "the TLS handshake with the serve at "
              + serve
              + " failed: "
              + e.getMessage()
              + " (give --ca-file with the CA that signed its certificate)");
    } catch (IOException e) {
      throw StorageException.of("ask the serve at " + serve + " to take the backup", e);
    } catch (InterruptedException e) {
      throw StorageException.interrupted("wait for the serve to take the backup", e);
    }
    JsonNode answer = parse(res.body());
    if (res.statusCode() != 201) {
      throw error(res.statusCode(), answer, res.body());
    }
    List<String> names = new java.util.ArrayList<>();
    answer.path("systems").forEach(n -> names.add(n.asText()));
    BackupCommand.print(
        answer.path("name").asText(),
        answer.path("created").asText(),
        answer.path("tables").size(),
        names,
        answer.path("bytes").asLong(-1),
        answer.path("bytesFreedByDelete").asLong(-1));
  }

  private static String token(Path tokenFile) {
    if (tokenFile != null) {
      return org.casebook.core.access.AccessFile.readToken(tokenFile, "token-file");
    }
    String env = System.getenv("CASEBOOK_TOKEN");
    return env == null || env.isBlank() ? null : env.strip();
  }

  private static JsonNode parse(String body) {
    try {
      return Json.mapper().readTree(body);
    } catch (IOException e) {
      return Json.mapper().createObjectNode();
    }
  }

  private static RuntimeException error(int status, JsonNode answer, String raw) {
    String message =
        "the serve answered " + status + ": " + answer.path("error").asText(raw.strip());
    String field = answer.path("field").asText("");
    return switch (status) {
      case 400 -> new InvalidInputException(field.isEmpty() ? "backup" : field, message);
      case 401 ->
          new PreconditionFailedException(
              message + " (give its write token: CASEBOOK_TOKEN or --token-file)");
      case 404 -> new NotFoundException(message);
      case 409 -> new ConflictException(message);
      default -> StorageException.unavailable(message);
    };
  }
}
