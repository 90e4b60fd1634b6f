package org.casebook.tsdb.wire;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.casebook.core.InvalidInputException;
import org.casebook.core.NotFoundException;
import org.casebook.core.http.HttpRequest;
import org.casebook.core.http.HttpResponse;
import org.casebook.tsdb.Annotation;
import org.casebook.tsdb.AnnotationChange;
import org.casebook.tsdb.TsdbService;

/**
 * OpenTSDB 2.4's {@code /api/annotation} ({@code AnnotationRpc}): one annotation by its body or
 * query string ({@code tsuid}, {@code start_time}, {@code end_time}, {@code description}, {@code
 * notes}), many with {@code /bulk}, the global ones of a range with {@code /api/annotations}. Times
 * on the query string are read as query times and kept in seconds, as OpenTSDB keeps them.
 */
final class AnnotationRoutes {
  private static final Set<String> BULK_DELETE_FIELDS =
      Set.of("startTime", "endTime", "tsuids", "global", "totalDeleted");

  private AnnotationRoutes() {}

  static HttpResponse getOne(TsdbService service, HttpRequest req) {
    AnnotationChange key = single(service, req);
    Annotation found =
        service
            .annotation(key.tsuid(), startOf(key))
            .orElseThrow(() -> new NotFoundException("Unable to locate annotation in storage"));
    return HttpResponse.ok(AnnotationJson.toMap(found));
  }

  static HttpResponse save(TsdbService service, HttpRequest req, boolean overwrite) {
    Optional<Annotation> saved = service.saveAnnotation(single(service, req), overwrite);
    return saved
        .map(a -> HttpResponse.ok(AnnotationJson.toMap(a)))
        // OpenTSDB answers a request that changes nothing with 304 and writes nothing.
        .orElseGet(() -> new HttpResponse(304, "application/json; charset=UTF-8", new byte[0]));
  }

  static HttpResponse deleteOne(TsdbService service, HttpRequest req) {
    AnnotationChange key = single(service, req);
    service.deleteAnnotation(key.tsuid(), startOf(key));
    return HttpResponse.noContent();
  }

  static HttpResponse saveAll(TsdbService service, HttpRequest req, boolean overwrite) {
    JsonNode body = JsonPuts.readTree(req.body());
    if (!body.isArray()) {
      throw new InvalidInputException("body", "an array of annotations expected");
    }
    List<AnnotationChange> changes = new ArrayList<>(body.size());
    for (int i = 0; i < body.size(); i++) {
      changes.add(AnnotationJson.change(body.get(i), "[" + i + "]"));
    }
    List<Map<String, Object>> out = new ArrayList<>();
    for (Annotation a : service.saveAnnotations(changes, overwrite)) {
      out.add(AnnotationJson.toMap(a));
    }
    return HttpResponse.ok(out);
  }

  /** OpenTSDB's bulk delete: a range of the global notes and of each tsuid's, both bounds kept. */
  static HttpResponse deleteRange(TsdbService service, HttpRequest req) {
    String start;
    String end;
    List<String> tsuids;
    boolean global;
    if (req.body().length > 0) {
      JsonNode b = JsonPuts.readTree(req.body());
      if (!b.isObject()) {
        throw new InvalidInputException("body", "a bulk delete object expected");
      }
      for (Iterator<String> it = b.fieldNames(); it.hasNext(); ) {
        String f = it.next();
        if (!BULK_DELETE_FIELDS.contains(f)) {
          throw new InvalidInputException(f, "Unrecognized field \"" + f + "\"");
        }
      }
      start = b.hasNonNull("startTime") ? b.get("startTime").asText() : null;
      end = b.hasNonNull("endTime") ? b.get("endTime").asText() : null;
      tsuids = null;
      if (b.hasNonNull("tsuids")) {
        if (!b.get("tsuids").isArray()) {
          throw new InvalidInputException("tsuids", "tsuids must be an array of strings");
        }
        tsuids = new ArrayList<>();
        for (JsonNode t : b.get("tsuids")) {
          tsuids.add(t.asText());
        }
      }
      global = b.path("global").asBoolean(false);
    } else {
      start = req.query("start_time").orElse(null);
      end = req.query("end_time").orElse(null);
      tsuids =
          req.query("tsuids")
              .map(t -> Arrays.stream(t.split(",")).map(String::strip).toList())
              .orElse(null);
      global = req.query("global").isPresent();
    }
    if (start == null || start.isEmpty()) {
      throw new InvalidInputException("startTime", "Missing the start time value");
    }
    if (!global && (tsuids == null || tsuids.isEmpty())) {
      throw new InvalidInputException("tsuids", "Missing the TSUIDs or global annotations flag");
    }
    long fromMs = service.parseTime(start, "startTime");
    long toMs = end == null || end.isEmpty() ? service.nowMs() : service.parseTime(end, "endTime");
    long deleted =
        service.deleteAnnotations(tsuids == null ? List.of() : tsuids, global, fromMs, toMs);
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("startTime", fromMs);
    out.put("endTime", toMs);
    out.put("tsuids", tsuids);
    out.put("global", global);
    out.put("totalDeleted", deleted);
    return HttpResponse.ok(out);
  }

  /** {@code GET /api/annotations}: the global notes starting in the range (end: now). */
  static HttpResponse globals(TsdbService service, HttpRequest req) {
    String start =
        req.query("start_time")
            .orElseThrow(() -> new InvalidInputException("start_time", "Missing start time"));
    long fromMs = service.parseTime(start, "start_time");
    long toMs =
        req.query("end_time").map(e -> service.parseTime(e, "end_time")).orElse(service.nowMs());
    List<Map<String, Object>> out = new ArrayList<>();
    for (Annotation a : service.globalAnnotations(fromMs, toMs)) {
      out.add(AnnotationJson.toMap(a));
    }
    return HttpResponse.ok(out);
  }

  private static long startOf(AnnotationChange key) {
    if (key.startTime() == null || key.startTime() < 1) {
      throw new InvalidInputException("startTime", "The start timestamp has not been set");
    }
    return key.startTime();
  }

  /** One annotation from the body when there is one, else from the query string. */
  private static AnnotationChange single(TsdbService service, HttpRequest req) {
    if (req.body().length > 0) {
      return AnnotationJson.change(JsonPuts.readTree(req.body()), "");
    }
    String start =
        req.query("start_time")
            .orElseThrow(() -> new InvalidInputException("start_time", "Missing start time"));
    long startSeconds = service.parseTime(start, "start_time") / 1000;
    Long endSeconds =
        req.query("end_time").map(e -> service.parseTime(e, "end_time") / 1000).orElse(null);
    return new AnnotationChange(
        req.query("tsuid").orElse(null),
        startSeconds,
        endSeconds,
        req.query("description").orElse(null),
        req.query("notes").orElse(null),
        null);
  }
}
