package org.casebook.trails.http;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.casebook.core.InvalidInputException;
import org.casebook.core.http.HttpResponse;
import org.casebook.core.http.HttpRoutes;
import org.casebook.trails.Behaviour;
import org.casebook.trails.Event;
import org.casebook.trails.HistoryLayout;
import org.casebook.trails.TrailQuery;
import org.casebook.trails.TrailsService;

/** REST adapter of the trails system. */
public final class TrailsRoutes {
  private TrailsRoutes() {}

  public static void register(TrailsService service, HttpRoutes routes) {
    routes.get("/api/trails/{uid}", req -> {
      String uid = req.pathParam("uid");
      LocalDate from = date(req.query("from").orElse(null), "from");
      LocalDate to = date(req.query("to").orElse(from == null ? null : from.toString()), "to");
      InvalidInputException.check(from != null, "from", "from (YYYY-MM-DD) is required");
      TrailQuery q = new TrailQuery(List.of(uid), from, to, types(csv(req.query("types").orElse(""))),
          new LinkedHashSet<>(csv(req.query("fields").orElse(""))));
      return HttpResponse.ok(trail(uid, service.trails(q).get(uid).events()));
    });
    routes.post("/api/trails/query", req -> {
      JsonNode body = req.jsonObject();
      for (var it = body.fieldNames(); it.hasNext(); ) {
        String f = it.next();
        InvalidInputException.check(Set.of("users", "from", "to", "types", "fields").contains(f), f, "unknown field '" + f + "'");
      }
      List<String> users = strings(body, "users");
      LocalDate from = date(text(body, "from"), "from");
      InvalidInputException.check(from != null, "from", "'from' (YYYY-MM-DD) is required");
      LocalDate to = body.has("to") ? date(text(body, "to"), "to") : from;
      TrailQuery q = new TrailQuery(users, from, to, types(body.has("types") ? strings(body, "types") : List.of()),
          new LinkedHashSet<>(body.has("fields") ? strings(body, "fields") : List.of()));
      Map<String, Object> out = new LinkedHashMap<>();
      List<Object> trails = new ArrayList<>();
      service.trails(q).forEach((u, t) -> trails.add(trail(u, t.events())));
      out.put("trails", trails);
      return HttpResponse.ok(out);
    });
    routes.get("/api/trails/{uid}/latest", req -> {
      String uid = req.pathParam("uid");
      int n = req.queryInt("n", 10, 1, 10_000);
      HistoryLayout layout = layout(req.query("layout").orElse("tall"));
      return HttpResponse.ok(trail(uid, service.latest(uid, n, layout)));
    });
  }

  static Map<String, Object> trail(String uid, List<Event> events) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("uid", uid);
    List<Object> list = new ArrayList<>(events.size());
    events.forEach(e -> list.add(e.toJson()));
    m.put("events", list);
    return m;
  }

  static HistoryLayout layout(String v) {
    try {
      return HistoryLayout.valueOf(v.toUpperCase(java.util.Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new InvalidInputException("layout", "layout must be 'tall' or 'wide'");
    }
  }

  static LocalDate date(String v, String field) {
    if (v == null || v.isBlank()) {
      return null;
    }
    try {
      return LocalDate.parse(v.trim());
    } catch (DateTimeParseException e) {
      throw new InvalidInputException(field, field + " must be a date like 2026-09-01, got '" + v + "'");
    }
  }

  static Set<Behaviour> types(List<String> labels) {
    Set<Behaviour> out = EnumSet.noneOf(Behaviour.class);
    for (String l : labels) {
      out.add(Behaviour.byLabel(l).orElseThrow(() -> new InvalidInputException("types",
          "unknown type '" + l + "' (login, play, visit, order)")));
    }
    return out;
  }

  static List<String> csv(String v) {
    List<String> out = new ArrayList<>();
    for (String p : v.split(",")) {
      if (!p.isBlank()) {
        out.add(p.trim());
      }
    }
    return out;
  }

  static String text(JsonNode body, String field) {
    JsonNode v = body.get(field);
    InvalidInputException.check(v != null && v.isTextual(), field, "'" + field + "' must be a string");
    return v.asText();
  }

  static List<String> strings(JsonNode body, String field) {
    JsonNode v = body.get(field);
    InvalidInputException.check(v != null && v.isArray(), field, "'" + field + "' must be an array of strings");
    List<String> out = new ArrayList<>();
    for (JsonNode n : v) {
      InvalidInputException.check(n.isTextual(), field, "'" + field + "' must contain only strings");
      out.add(n.asText());
    }
    return out;
  }
}
