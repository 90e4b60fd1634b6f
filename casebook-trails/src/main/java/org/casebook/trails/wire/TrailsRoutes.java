package org.casebook.trails.wire;

import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.casebook.core.Enums;
import org.casebook.core.Ids;
import org.casebook.core.InvalidInputException;
import org.casebook.core.http.HttpRequest;
import org.casebook.core.http.HttpResponse;
import org.casebook.core.http.RouteTable;
import org.casebook.core.page.Page;
import org.casebook.trails.Behaviour;
import org.casebook.trails.Event;
import org.casebook.trails.HistoryLayout;
import org.casebook.trails.LinesReport;
import org.casebook.trails.TrailQuery;
import org.casebook.trails.TrailsService;

/** REST adapter of the trails system. */
public final class TrailsRoutes {
  /** A user's trail: {@code {"uid":…,"events":[…]}}. */
  record TrailBody(String uid, List<EventView> events) {
    static TrailBody of(String uid, List<Event> events) {
      return new TrailBody(uid, EventView.of(events));
    }
  }

  /**
   * The answer of {@code POST /api/trails/query}: one trail per requested user, in request order.
   */
  record TrailsBody(List<TrailBody> trails) {}

  /**
   * One page of a user's latest records, newest first; {@code next} is the cursor of the next page
   * or null.
   */
  record LatestPage(String uid, List<EventView> events, String next) {}

  /**
   * The body of {@code POST /api/trails/query}; {@code to} defaults to {@code from}, {@code types}
   * to all four, {@code fields} to all of them. Each problem is a 400 naming its field.
   */
  record TrailQueryRequest(
      List<String> users, String from, String to, List<String> types, List<String> fields) {
    public TrailQueryRequest {
      InvalidInputException.check(
          users != null, "users", "users (an array of user ids) is required");
      InvalidInputException.check(from != null, "from", "from (YYYY-MM-DD) is required");
      InvalidInputException.check(!users.contains(null), "users", "users must not contain null");
      InvalidInputException.check(
          types == null || !types.contains(null), "types", "types must not contain null");
      InvalidInputException.check(
          fields == null || !fields.contains(null), "fields", "fields must not contain null");
      users = List.copyOf(users);
      types = types == null ? List.of() : List.copyOf(types);
      fields = fields == null ? List.of() : List.copyOf(fields);
    }

    TrailQuery toQuery(TrailsService svc) {
      LocalDate start = date(from, "from");
      return new TrailQuery(
          users,
          start,
          to == null ? start : date(to, "to"),
          svc.parseBehaviours(types, "types"),
          new LinkedHashSet<>(fields));
    }
  }

  /**
   * The body of {@code POST /api/trails/match}: a condition ({@link
   * org.casebook.trails.TrailCondition}), a day range ({@code to} defaults to {@code from}) and the
   * users to test, at most {@link TrailQuery#MAX_USERS}. Each problem is a 400 naming its field.
   */
  record MatchRequest(String query, String from, String to, List<String> users) {
    public MatchRequest {
      InvalidInputException.check(
          users != null,
          "users",
          "users (an array of user ids) is required; every user is tested only by the CLI's"
              + " MapReduce run (trails match --all)");
      InvalidInputException.check(!users.contains(null), "users", "users must not contain null");
      InvalidInputException.check(
          users.size() <= TrailQuery.MAX_USERS,
          "users",
          "at most " + TrailQuery.MAX_USERS + " users per request");
      users = List.copyOf(users);
    }
  }

  /** The answer of {@code POST /api/trails/match}: the users tested, those matching, in order. */
  record MatchAnswer(
      String query, String from, String to, int users, int count, List<String> matched) {}

  /**
   * The answer of {@code POST /api/trails/events}: the counts, rejected lines by category, the
   * first rejected lines (numbered from 1 within the body) and how many more there were.
   */
  record UploadAnswer(
      long lines,
      long accepted,
      long rejected,
      long cells,
      Map<String, Long> reasons,
      List<RejectedLine> rejects,
      long rejectsLeftOut) {
    static UploadAnswer of(LinesReport r) {
      return new UploadAnswer(
          r.lines(),
          r.accepted(),
          r.rejected(),
          r.cells(),
          new TreeMap<>(r.rejectReasons()),
          r.rejects().stream().map(x -> new RejectedLine(x.line(), x.reason(), x.text())).toList(),
          r.rejectsLeftOut());
    }
  }

  /** A rejected line of an upload: its number, why, and the line as read. */
  record RejectedLine(long line, String reason, String text) {}

  /**
   * One field of a behaviour as JSON: its name and kind ({@code TEXT}, {@code COUNT}, {@code
   * MONEY}).
   */
  public record FieldBody(String name, String kind) {}

  /**
   * The body of {@code PUT /api/trails/behaviours/{name}}: every field of the behaviour, those
   * declared before included (a field left out is refused, not removed).
   */
  record DeclareRequest(List<FieldBody> fields) {
    List<Behaviour.Field> toFields() {
      InvalidInputException.check(
          fields != null && !fields.isEmpty(),
          "fields",
          "fields (an array of {\"name\":…,\"kind\":\"TEXT|COUNT|MONEY\"}) is required");
      return fields.stream()
          .map(
              f -> {
                InvalidInputException.check(
                    f != null && f.name() != null, "fields", "every field needs a name");
                InvalidInputException.check(
                    f.kind() != null,
                    "fields",
                    "field '" + f.name() + "' needs a kind (TEXT, COUNT or MONEY)");
                return new Behaviour.Field(
                    f.name(), Enums.parse(Behaviour.Kind.class, f.kind(), "fields"));
              })
          .toList();
    }
  }

  /** A behaviour as JSON: its name, id, whether built in, and fields in order. */
  public record BehaviourBody(String name, int id, boolean builtIn, List<FieldBody> fields) {
    public static BehaviourBody of(Behaviour b) {
      return new BehaviourBody(
          b.label(),
          b.id(),
          b.builtIn(),
          b.fields().stream().map(f -> new FieldBody(f.name(), f.kind().name())).toList());
    }
  }

  /** The answer of {@code GET /api/trails/behaviours}: every behaviour by id. */
  record BehavioursBody(List<BehaviourBody> behaviours) {}

  public static final RouteTable<TrailsService> ROUTES =
      RouteTable.<TrailsService>builder()
          // Before the {uid} routes: the first pattern that matches serves a request.
          .get(
              "/api/trails/behaviours",
              "Every behaviour, the four built-ins and the declared ones, with their fields",
              (svc, req) ->
                  HttpResponse.ok(
                      new BehavioursBody(
                          svc.behaviours().stream().map(BehaviourBody::of).toList())))
          .get(
              "/api/trails/behaviours/{name}",
              "One behaviour and its fields",
              (svc, req) -> HttpResponse.ok(BehaviourBody.of(svc.behaviour(req.pathParam("name")))))
          .admin(
              "PUT",
              "/api/trails/behaviours/{name}",
              "Declare a behaviour with its fields, or add fields to it (its id is kept forever;"
                  + " a field's kind never changes): lines of its type are accepted from then on",
              (svc, req) ->
                  HttpResponse.ok(
                      BehaviourBody.of(
                          svc.declareBehaviour(
                              req.pathParam("name"), req.body(DeclareRequest.class).toFields()))))
          .get(
              "/api/trails/{uid}",
              "A user's trail over a day range (from, to, types, fields)",
              TrailsRoutes::trail)
          .postQuery(
              "/api/trails/query",
              "Trails of several users over a day range (a read: no token needed)",
              (svc, req) -> {
                TrailQuery q = req.body(TrailQueryRequest.class).toQuery(svc);
                List<TrailBody> trails =
                    svc.trails(q).values().stream()
                        .map(t -> TrailBody.of(t.uid(), t.events()))
                        .toList();
                return HttpResponse.ok(new TrailsBody(trails));
              })
          .postQuery(
              "/api/trails/match",
              "Which of the users' events in a day range satisfy a condition across behaviours"
                  + " and on values (a read: no token needed)",
              TrailsRoutes::match)
          .post(
              "/api/trails/events",
              "Store log lines (NDJSON, as the file ingest reads them); counts and the first"
                  + " rejected lines once the cells are stored; the same body again changes nothing",
              (svc, req) -> HttpResponse.ok(UploadAnswer.of(svc.ingestLines(req.body()))))
          .admin(
              "DELETE",
              "/api/trails/{uid}",
              "Delete every record of a user from every trails table (rows deleted per table)",
              (svc, req) -> HttpResponse.ok(svc.deleteUser(req.pathParam("uid"))))
          .list(
              "/api/trails/{uid}/latest",
              "A user's records, newest first, paged (layout wide, the default, or tall)",
              TrailsRoutes::latest)
          .build();

  /**
   * The wide history (one row per user) unless asked: faster than the tall one for the latest
   * records (bench trails: p50 0.48 against 0.61 ms at 300k records; p99 3.47 against 10.1 ms at
   * 10M). Ingest writes both by default.
   */
  static final String DEFAULT_LAYOUT = "wide";

  private TrailsRoutes() {}

  private static HttpResponse trail(TrailsService svc, HttpRequest req) {
    String uid = Ids.check(req.pathParam("uid"), "uid", Event.MAX_UID_CHARS);
    LocalDate from = date(req.query("from").orElse(null), "from");
    LocalDate to = req.query("to").isPresent() ? date(req.query("to").get(), "to") : from;
    TrailQuery q =
        new TrailQuery(
            List.of(uid),
            from,
            to,
            svc.parseBehaviours(csv(req.query("types").orElse("")), "types"),
            new LinkedHashSet<>(csv(req.query("fields").orElse(""))));
    return HttpResponse.ok(TrailBody.of(uid, svc.trails(q).get(uid).events()));
  }

  private static HttpResponse match(TrailsService svc, HttpRequest req) {
    MatchRequest m = req.body(MatchRequest.class);
    LocalDate from = date(m.from(), "from");
    LocalDate to = m.to() == null ? from : date(m.to(), "to");
    List<String> matched = svc.match(m.query(), m.users(), from, to);
    return HttpResponse.ok(
        new MatchAnswer(
            m.query(),
            from.toString(),
            to.toString(),
            new LinkedHashSet<>(m.users()).size(),
            matched.size(),
            matched));
  }

  private static HttpResponse latest(TrailsService svc, HttpRequest req) {
    String uid = Ids.check(req.pathParam("uid"), "uid", Event.MAX_UID_CHARS);
    HistoryLayout layout =
        Enums.parse(HistoryLayout.class, req.query("layout").orElse(DEFAULT_LAYOUT), "layout");
    Page<Event> page = svc.latest(uid, req.page(10), layout);
    return HttpResponse.ok(new LatestPage(uid, EventView.of(page.items()), page.nextOrNull()));
  }

  /**
   * A date within {@link TrailQuery#FIRST_DATE}..{@link TrailQuery#LAST_DATE}, or a 400 naming
   * {@code field}.
   */
  static LocalDate date(String v, String field) {
    InvalidInputException.check(
        v != null && !v.isBlank(), field, field + " (YYYY-MM-DD) is required");
    try {
      return TrailQuery.checkDate(LocalDate.parse(v.trim()), field);
    } catch (DateTimeParseException e) {
      throw new InvalidInputException(
          field, field + " must be a date like 2026-09-01, got '" + v + "'");
    }
  }

  static List<String> csv(String v) {
    return Arrays.stream(v.split(",")).map(String::trim).filter(p -> !p.isEmpty()).toList();
  }
}
