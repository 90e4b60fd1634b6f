package org.casebook.archive.wire;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.casebook.archive.ArchiveService;
import org.casebook.archive.BadRecords;
import org.casebook.archive.ImportJobStatus;
import org.casebook.archive.ImportMode;
import org.casebook.archive.ImportRequest;
import org.casebook.archive.RecordedExperiment;
import org.casebook.archive.StatusRecord;
import org.casebook.core.InvalidInputException;
import org.casebook.core.Json;
import org.casebook.core.NotFoundException;
import org.casebook.core.StorageException;
import org.casebook.core.http.HttpResponse;
import org.casebook.core.http.RouteTable;
import org.casebook.core.page.Page;

/** REST adapter of the archive. */
public final class ArchiveRoutes {
  /** A page of a user's statuses. */
  public record StatusesPage(List<StatusRecord> statuses, String next) {}

  /**
   * A recorded {@code bench archive} result: when (ISO-8601, UTC), and its JSON report as written.
   */
  public record Experiment(String recordedAt, JsonNode results) {
    static Experiment of(RecordedExperiment e) {
      try {
        return new Experiment(e.recordedAt().toString(), Json.mapper().readTree(e.resultsJson()));
      } catch (JsonProcessingException unreadable) {
        throw StorageException.of(
            "read the experiment results recorded at " + e.recordedAt(), unreadable);
      }
    }
  }

  /** Recorded results of {@code bench archive}, newest first. */
  public record ExperimentsAnswer(List<Experiment> experiments) {
    static ExperimentsAnswer of(List<RecordedExperiment> recorded) {
      List<Experiment> out = new ArrayList<>();
      for (RecordedExperiment e : recorded) {
        out.add(Experiment.of(e));
      }
      return new ExperimentsAnswer(out);
    }
  }

  /** A page of import jobs, newest first. */
  public record ImportsPage(List<ImportJobStatus> imports, String next) {}

  /**
   * {@code POST /api/archive/imports}: a directory (or file) on the server, and optionally the mode
   * (default bulkload), the regions (default computed), the reads per file (default 2) and what a
   * file with bad records becomes (default quarantine-file).
   */
  public record ImportBody(
      String input, String mode, Integer regions, Integer attempts, String badRecords) {
    ImportRequest toRequest() {
      InvalidInputException.check(
          input != null && !input.isBlank(), "input", "input must name a directory on the server");
      ImportMode m = mode == null ? ImportMode.BULKLOAD : ImportMode.parse(mode, "mode");
      Path dir;
      try {
        dir = Path.of(input);
      } catch (InvalidPathException e) {
        throw new InvalidInputException("input", "input is not a valid path: " + e.getMessage());
      }
      return ImportRequest.local(dir, m)
          .withRegions(regions)
          .withAttempts(attempts == null ? ImportRequest.DEFAULT_ATTEMPTS : attempts)
          .withBadRecords(
              badRecords == null
                  ? BadRecords.QUARANTINE_FILE
                  : BadRecords.parse(badRecords, "badRecords"));
    }
  }

  public static final RouteTable<ArchiveService> ROUTES =
      RouteTable.<ArchiveService>builder()
          .get(
              "/api/archive/users/{uid}",
              "A user's profile, followers and friends",
              (archive, req) -> {
                String uid = req.pathParam("uid");
                return HttpResponse.ok(
                    archive
                        .user(uid)
                        .orElseThrow(
                            () -> new NotFoundException("no user " + uid + " in the archive")));
              })
          .list(
              "/api/archive/users/{uid}/statuses",
              "A user's statuses, newest first",
              (archive, req) -> {
                Page<StatusRecord> page = archive.statuses(req.pathParam("uid"), req.page(20));
                return HttpResponse.ok(new StatusesPage(page.items(), page.nextOrNull()));
              })
          .get(
              "/api/archive/statuses/{id}",
              "One status by id (through the id index)",
              (archive, req) -> {
                long id = parseId(req.pathParam("id"), "id");
                return HttpResponse.ok(
                    archive
                        .status(id)
                        .orElseThrow(
                            () -> new NotFoundException("no status " + id + " in the archive")));
              })
          .admin(
              "POST",
              "/api/archive/imports",
              "Start importing a directory on the server (one import at a time)",
              (archive, req) ->
                  HttpResponse.accepted(
                      archive.startImport(req.body(ImportBody.class).toRequest())))
          .list(
              "/api/archive/imports",
              "This server's import jobs, newest first",
              (archive, req) -> {
                Page<ImportJobStatus> page = archive.importJobs(req.page(20));
                return HttpResponse.ok(new ImportsPage(page.items(), page.nextOrNull()));
              })
          .get(
              "/api/archive/imports/{id}",
              "One import job: running, succeeded (with its report) or failed",
              (archive, req) -> HttpResponse.ok(archive.importJob(req.pathParam("id"))))
          .get(
              "/api/archive/experiments",
              "Recorded results of bench archive (seed 001 §3.2's experiment), newest first;"
                  + " ?limit=1..20 (default 5)",
              (archive, req) ->
                  HttpResponse.ok(
                      ExperimentsAnswer.of(archive.experiments(req.queryInt("limit", 5, 1, 20)))))
          .build();

  private ArchiveRoutes() {}

  static long parseId(String v, String field) {
    InvalidInputException.check(
        v.matches("[1-9][0-9]{0,18}"), field, field + " must be a positive integer id");
    try {
      return Long.parseLong(v);
    } catch (NumberFormatException e) {
      throw new InvalidInputException(field, field + " is out of range");
    }
  }
}
