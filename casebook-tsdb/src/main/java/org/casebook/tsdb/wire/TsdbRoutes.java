package org.casebook.tsdb.wire;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.casebook.core.ErrorKind;
import org.casebook.core.InvalidInputException;
import org.casebook.core.http.HttpRequest;
import org.casebook.core.http.HttpResponse;
import org.casebook.core.http.RouteTable;
import org.casebook.tsdb.LastAnswer;
import org.casebook.tsdb.PutResult;
import org.casebook.tsdb.QueryLimitException;
import org.casebook.tsdb.QueryResult;
import org.casebook.tsdb.SeriesSpec;
import org.casebook.tsdb.TagPair;
import org.casebook.tsdb.Tags;
import org.casebook.tsdb.TsdbService;
import org.casebook.tsdb.UidAssignment;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * OpenTSDB 2.4's HTTP API on the shared server: the paths, parameters and response shapes its
 * clients (Telegraf, Grafana, scripts) already use. Errors keep OpenTSDB's shape, {@code
 * {"error":{"code","message"}}}, with the field at fault and the error kind added.
 */
public final class TsdbRoutes {
  private static final Logger LOG = LoggerFactory.getLogger(TsdbRoutes.class);

  /**
   * The paths OpenTSDB's clients call: served at the root of the API, not under {@code /api/tsdb/},
   * so that a client switches by changing host and port only.
   */
  public static final List<String> OPENTSDB_PATHS =
      List.of(
          "/api/put",
          "/api/query",
          "/api/annotation",
          "/api/annotations",
          "/api/stats",
          "/api/suggest",
          "/api/search",
          "/api/aggregators",
          "/api/config",
          "/api/version",
          "/api/uid");

  public static final RouteTable<TsdbService> ROUTES =
      RouteTable.<TsdbService>builder()
          .post(
              "/api/put",
              "Store points (one object or an array, gzip or deflate Content-Encoding taken);"
                  + " ?summary, ?details, ?sync as OpenTSDB",
              opentsdb(TsdbRoutes::put))
          .get(
              "/api/suggest",
              "Names starting with q: type=metrics|tagk|tagv, q, max",
              opentsdb(TsdbRoutes::suggestGet))
          .postQuery(
              "/api/suggest",
              "Names starting with q, asked as JSON {type, q, max}",
              opentsdb(TsdbRoutes::suggestPost))
          .get(
              "/api/query",
              "Query: start, end, m=agg:[interval-agg[-fill]:][rate[{…}]:]metric{tags}{filters}, ms,"
                  + " arrays, show_query, no_annotations, global_annotations, delete (with the"
                  + " write token, when allowed)",
              opentsdb(TsdbRoutes::queryGet))
          .postQuery(
              "/api/query",
              "Query as OpenTSDB's JSON: start, end, queries[aggregator, metric, downsample,"
                  + " rate, rateOptions, tags, filters, explicitTags], msResolution, showQuery,"
                  + " noAnnotations, globalAnnotations, delete (with the write token, when"
                  + " allowed); ?arrays for [time, value] points",
              opentsdb(TsdbRoutes::queryPost))
          .postQuery(
              "/api/query/exp",
              "Expressions over metrics, as OpenTSDB 2.4's JSON: time{start, end, timezone,"
                  + " aggregator, downsampler{interval, aggregator, fillPolicy}, rate},"
                  + " filters[{id, tags, explicitTags}], metrics[{id, metric, filter, aggregator,"
                  + " fillPolicy}], expressions[{id, expr (+ - * / % and parentheses), join{operator"
                  + " union|intersection, useQueryTags, includeAggTags}, fillPolicy}],"
                  + " outputs[{id, alias}]",
              opentsdb(TsdbRoutes::queryExp))
          .get(
              "/api/query/last",
              "Latest point of each series: timeseries=metric{k=v} (repeated), back_scan hours",
              opentsdb(TsdbRoutes::lastGet))
          .postQuery(
              "/api/query/last",
              "Latest points, asked as JSON {queries:[{metric, tags}], backScan}",
              opentsdb(TsdbRoutes::lastPost))
          .get(
              "/api/search/lookup",
              "Series of a metric matching tags: m=metric{k=v,k2=*}, limit",
              opentsdb(TsdbRoutes::lookupGet))
          .postQuery(
              "/api/search/lookup",
              "Series lookup as JSON {metric, tags:[{key, value}], limit}",
              opentsdb(TsdbRoutes::lookupPost))
          .get(
              "/api/aggregators",
              "Aggregator names",
              opentsdb((svc, req) -> HttpResponse.ok(TsdbService.aggregators())))
          .get(
              "/api/config/filters",
              "Tag filter types with descriptions and examples",
              opentsdb((svc, req) -> HttpResponse.ok(TsdbService.filterTypes())))
          .get(
              "/api/config",
              "The effective settings: OpenTSDB's keys (tsd.…) and Casebook's (tsdb.…)",
              opentsdb((svc, req) -> HttpResponse.ok(svc.config().describe())))
          .postQuery(
              "/api/config",
              "The effective settings, as GET",
              opentsdb((svc, req) -> HttpResponse.ok(svc.config().describe())))
          .get(
              "/api/stats",
              "The process's figures (its meters) as OpenTSDB lists its own",
              opentsdb((svc, req) -> HttpResponse.ok(svc.stats())))
          .postQuery(
              "/api/stats",
              "The process's figures, as GET",
              opentsdb((svc, req) -> HttpResponse.ok(svc.stats())))
          .get(
              "/api/annotation",
              "One annotation: tsuid (none: global), start_time",
              opentsdb(AnnotationRoutes::getOne))
          .post(
              "/api/annotation",
              "Create or merge an annotation {tsuid, startTime, endTime, description, notes,"
                  + " custom}; 304 when nothing changes",
              opentsdb((svc, req) -> AnnotationRoutes.save(svc, req, false)))
          .put(
              "/api/annotation",
              "Create or replace an annotation (fields not given are reset); 304 when nothing"
                  + " changes",
              opentsdb((svc, req) -> AnnotationRoutes.save(svc, req, true)))
          .delete(
              "/api/annotation",
              "Delete an annotation: tsuid (none: global), start_time",
              opentsdb(AnnotationRoutes::deleteOne))
          .post(
              "/api/annotation/bulk",
              "Create or merge many annotations (a JSON array)",
              opentsdb((svc, req) -> AnnotationRoutes.saveAll(svc, req, false)))
          .put(
              "/api/annotation/bulk",
              "Create or replace many annotations (a JSON array)",
              opentsdb((svc, req) -> AnnotationRoutes.saveAll(svc, req, true)))
          .delete(
              "/api/annotation/bulk",
              "Delete the annotations in a range: {startTime, endTime, tsuids, global}",
              opentsdb(AnnotationRoutes::deleteRange))
          .get(
              "/api/annotations",
              "Global annotations starting in start_time..end_time",
              opentsdb(AnnotationRoutes::globals))
          .get("/api/version", "Version, as OpenTSDB reports it", opentsdb(TsdbRoutes::version))
          .post(
              "/api/uid/assign",
              "Give new names ids: JSON {metric:[…], tagk:[…], tagv:[…]}",
              opentsdb(TsdbRoutes::assign))
          .build();

  private TsdbRoutes() {}

  /** OpenTSDB's error body. */
  record OpenTsdbError(ErrorDetail error) {}

  record ErrorDetail(int code, String message, String details, String field, String kind) {}

  private static RouteTable.ServiceHandler<TsdbService> opentsdb(
      RouteTable.ServiceHandler<TsdbService> handler) {
    return (service, req) -> {
      try {
        return handler.handle(service, req);
      } catch (RuntimeException e) {
        ErrorKind kind = ErrorKind.of(e);
        if (kind == ErrorKind.INTERNAL && !(e instanceof PutBodies.TooLargeException)) {
          LOG.error("{} {} failed", req.method(), req.path(), e);
        }
        String field = e instanceof InvalidInputException iie ? iie.field() : null;
        int status = kind.httpStatus();
        if (e instanceof QueryLimitException limit) {
          // OpenTSDB answers its query limits with 413; the field is the setting to raise.
          status = 413;
          field = "tsdb." + limit.setting();
        } else if (e instanceof PutBodies.TooLargeException tooLarge) {
          status = 413;
          field = tooLarge.field();
          kind = ErrorKind.INVALID_INPUT;
        }
        String message = kind == ErrorKind.INTERNAL ? "internal error" : e.getMessage();
        return HttpResponse.json(
            status, new OpenTsdbError(new ErrorDetail(status, message, null, field, kind.code())));
      }
    };
  }

  private static HttpResponse put(TsdbService service, HttpRequest req) {
    if (req.query("sync_timeout").isPresent()) {
      // A sync put here waits for the write buffer's flush, however long it takes.
      throw new InvalidInputException(
          "sync_timeout",
          "sync_timeout is not supported: ?sync waits until the points are durable");
    }
    byte[] body = PutBodies.decode(req.body(), req.header("Content-Encoding").orElse(null));
    PutResult r = JsonPuts.put(service, body, req.query("sync").isPresent());
    boolean details = req.query("details").isPresent();
    boolean summary = req.query("summary").isPresent();
    if (details) {
      return HttpResponse.json(r.failed() > 0 ? 400 : 200, r);
    }
    if (summary) {
      return HttpResponse.json(r.failed() > 0 ? 400 : 200, new PutSummary(r.failed(), r.success()));
    }
    if (r.failed() > 0) {
      return HttpResponse.json(
          400,
          new OpenTsdbError(
              new ErrorDetail(
                  400,
                  "One or more data points had errors",
                  "Please see the TSD logs or append \"details\" to the put request",
                  "body",
                  ErrorKind.INVALID_INPUT.code())));
    }
    return HttpResponse.noContent();
  }

  record PutSummary(int failed, int success) {}

  private static HttpResponse suggestGet(TsdbService service, HttpRequest req) {
    String type =
        req.query("type")
            .orElseThrow(() -> new InvalidInputException("type", "Missing 'type' parameter"));
    int max = req.queryInt("max", 25, 1, 100_000);
    return HttpResponse.ok(service.suggest(type, req.query("q").orElse(""), max));
  }

  private static final List<String> QUERY_PARAMS =
      List.of(
          "start",
          "end",
          "m",
          "tz",
          "ms",
          "msResolution",
          "show_query",
          "arrays",
          "show_tsuids",
          "delete",
          "use_calendar",
          "tsuid",
          "no_annotations",
          "global_annotations",
          "show_stats",
          "show_summary",
          "padding",
          "jsonp");

  private static HttpResponse queryGet(TsdbService service, HttpRequest req) {
    Map<String, List<String>> params = new java.util.LinkedHashMap<>();
    for (String name : QUERY_PARAMS) {
      List<String> values = req.queryAll(name);
      if (!values.isEmpty()) {
        params.put(name, values);
      }
    }
    return answer(service, req, QueryJson.fromParams(params, service.nowMs()));
  }

  private static HttpResponse queryPost(TsdbService service, HttpRequest req) {
    if (req.query("jsonp").isPresent()) {
      throw new InvalidInputException("jsonp", "jsonp is not supported");
    }
    // OpenTSDB's serializer reads arrays from the query string of any method, by its presence.
    boolean arrays = req.query("arrays").isPresent();
    return answer(
        service, req, QueryJson.fromJson(JsonPuts.readTree(req.body()), service.nowMs(), arrays));
  }

  private static HttpResponse answer(TsdbService service, HttpRequest req, QueryJson q) {
    if (q.delete() && !req.permits(org.casebook.core.access.Action.ADMIN)) {
      // A query is a read; one that deletes what it matched is an admin's.
      return HttpResponse.refused(req, org.casebook.core.access.Action.ADMIN);
    }
    List<List<QueryResult>> results =
        q.delete() ? service.queryAndDelete(q.query()) : service.query(q.query());
    byte[] body = q.render(service.annotate(q.query(), results, q.seriesNotes(), q.globalNotes()));
    return new HttpResponse(200, "application/json; charset=UTF-8", body);
  }

  private static HttpResponse queryExp(TsdbService service, HttpRequest req) {
    ExpressionJson q = ExpressionJson.fromJson(JsonPuts.readTree(req.body()), service.nowMs());
    byte[] body = ExpressionAnswerJson.render(service.query(q.request()), q.echo());
    return new HttpResponse(200, "application/json; charset=UTF-8", body);
  }

  private static final int DEFAULT_BACK_SCAN_HOURS = 24;

  private static HttpResponse lastGet(TsdbService service, HttpRequest req) {
    List<String> series = req.queryAll("timeseries");
    if (series.isEmpty()) {
      throw new InvalidInputException("timeseries", "Missing the timeseries parameter");
    }
    int backScan = req.queryInt("back_scan", DEFAULT_BACK_SCAN_HOURS, 0, 24 * 366);
    List<LastAnswer> out = new ArrayList<>();
    for (String s : series) {
      SeriesSpec spec = Tags.parseSeries(s, "timeseries");
      out.addAll(service.last(spec.metric(), asMap(spec.tags()), backScan));
    }
    return HttpResponse.ok(out);
  }

  record LastQuery(String metric, Map<String, String> tags, List<String> tsuids) {}

  record LastRequest(List<LastQuery> queries, Integer backScan, Boolean resolveNames) {}

  private static HttpResponse lastPost(TsdbService service, HttpRequest req) {
    LastRequest r = req.body(LastRequest.class);
    if (r.queries() == null || r.queries().isEmpty()) {
      throw new InvalidInputException("queries", "Missing queries");
    }
    int backScan = r.backScan() == null ? DEFAULT_BACK_SCAN_HOURS : r.backScan();
    List<LastAnswer> out = new ArrayList<>();
    for (LastQuery q : r.queries()) {
      if (q.tsuids() != null && !q.tsuids().isEmpty()) {
        throw new InvalidInputException("tsuids", "last points by tsuid are not supported");
      }
      if (q.metric() == null || q.metric().isEmpty()) {
        throw new InvalidInputException("metric", "Missing the metric");
      }
      out.addAll(service.last(q.metric(), q.tags() == null ? Map.of() : q.tags(), backScan));
    }
    return HttpResponse.ok(out);
  }

  private static Map<String, String> asMap(List<TagPair> pairs) {
    Map<String, String> m = new java.util.LinkedHashMap<>();
    pairs.forEach(p -> m.put(p.key(), p.value()));
    return m;
  }

  private static final int DEFAULT_LOOKUP_LIMIT = 25;

  private static HttpResponse lookupGet(TsdbService service, HttpRequest req) {
    String m =
        req.query("m").orElseThrow(() -> new InvalidInputException("m", "Missing the m parameter"));
    SeriesSpec spec = Tags.parseSeries(m, "m");
    int limit = req.queryInt("limit", DEFAULT_LOOKUP_LIMIT, 1, 100_000);
    return HttpResponse.ok(service.lookup(spec.metric(), spec.tags(), limit));
  }

  record LookupRequest(String metric, List<TagPair> tags, Integer limit, Boolean useMeta) {}

  private static HttpResponse lookupPost(TsdbService service, HttpRequest req) {
    LookupRequest r = req.body(LookupRequest.class);
    if (r.metric() == null || r.metric().isEmpty()) {
      throw new InvalidInputException("metric", "Missing the metric");
    }
    int limit = r.limit() == null ? DEFAULT_LOOKUP_LIMIT : r.limit();
    InvalidInputException.check(limit >= 1 && limit <= 100_000, "limit", "limit must be 1..100000");
    return HttpResponse.ok(
        service.lookup(r.metric(), r.tags() == null ? List.of() : r.tags(), limit));
  }

  record SuggestRequest(String type, String q, Integer max) {}

  private static HttpResponse suggestPost(TsdbService service, HttpRequest req) {
    SuggestRequest s = req.body(SuggestRequest.class);
    if (s.type() == null) {
      throw new InvalidInputException("type", "Missing 'type' parameter");
    }
    int max = s.max() == null ? 25 : s.max();
    InvalidInputException.check(max >= 1 && max <= 100_000, "max", "max must be 1..100000");
    return HttpResponse.ok(service.suggest(s.type(), s.q() == null ? "" : s.q(), max));
  }

  record Version(
      String version,
      String short_revision,
      String full_revision,
      String timestamp,
      String repo_status,
      String user,
      String host,
      String repo) {}

  private static HttpResponse version(TsdbService service, HttpRequest req) {
    return HttpResponse.ok(
        new Version(
            TsdbService.protocolVersion(),
            "casebook",
            "casebook",
            "0",
            "MINT",
            "casebook",
            "casebook",
            "casebook-tsdb"));
  }

  record AssignRequest(List<String> metric, List<String> tagk, List<String> tagv) {}

  record AssignResponse(
      Map<String, String> metric,
      Map<String, String> metric_errors,
      Map<String, String> tagk,
      Map<String, String> tagk_errors,
      Map<String, String> tagv,
      Map<String, String> tagv_errors) {}

  private static HttpResponse assign(TsdbService service, HttpRequest req) {
    AssignRequest a = req.body(AssignRequest.class);
    List<UidAssignment> results = new ArrayList<>();
    for (String type : List.of("metrics", "tagk", "tagv")) {
      List<String> names =
          switch (type) {
            case "metrics" -> a.metric();
            case "tagk" -> a.tagk();
            default -> a.tagv();
          };
      results.add(
          names == null
              ? new UidAssignment(type, Map.of(), Map.of())
              : service.assign(type, names));
    }
    boolean failed = results.stream().anyMatch(r -> !r.errors().isEmpty());
    AssignResponse body =
        new AssignResponse(
            results.get(0).assigned(),
            nullIfEmpty(results.get(0).errors()),
            results.get(1).assigned(),
            nullIfEmpty(results.get(1).errors()),
            results.get(2).assigned(),
            nullIfEmpty(results.get(2).errors()));
    return HttpResponse.json(failed ? 400 : 200, body);
  }

  private static Map<String, String> nullIfEmpty(Map<String, String> m) {
    return m.isEmpty() ? null : m;
  }
}
