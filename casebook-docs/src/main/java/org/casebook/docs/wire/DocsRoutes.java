package org.casebook.docs.wire;

import java.io.ByteArrayInputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import org.casebook.core.Enums;
import org.casebook.core.InvalidInputException;
import org.casebook.core.http.HttpRequest;
import org.casebook.core.http.HttpResponse;
import org.casebook.core.http.RouteTable;
import org.casebook.docs.BulkItem;
import org.casebook.docs.BulkSummary;
import org.casebook.docs.CommentOrder;
import org.casebook.docs.DocType;
import org.casebook.docs.DocsService;
import org.casebook.docs.Document;
import org.casebook.docs.DocumentsPage;
import org.casebook.docs.Family;
import org.casebook.docs.FieldDef;
import org.casebook.docs.FieldKind;
import org.casebook.docs.WriteResult;

/**
 * REST adapter: parse, call the service, render. Documents carry an ETag (their version); writes
 * take {@code If-Match}. The {@code _types} and {@code _bulk} routes are declared before the {@code
 * {type}} ones, which would otherwise match them (type names cannot start with '_').
 */
public final class DocsRoutes {
  private static final String BASE = "/api/docs";
  private static final String DOC = BASE + "/{type}/{id}";
  private static final int DOCS_PAGE = 20;
  private static final int COMMENTS_PAGE = 50;
  private static final int HISTORY_PAGE = 20;

  /** One field of a type declaration; kind and family are parsed case-insensitively. */
  record FieldRequest(String name, String kind, String family) {}

  /** Body of {@code PUT /api/docs/_types/{type}}. */
  record TypeRequest(List<FieldRequest> fields, List<String> parents) {}

  /** Body of an increment: {@code by} defaults to 1. */
  record IncrementRequest(String field, Long by) {}

  record IncrementResponse(String field, long value) {}

  record TypesResponse(List<DocType> types) {}

  record BulkResponse(long took, boolean errors, List<BulkItem> items) {}

  /** Every route of the store, declared once (the descriptor lists them, start binds them). */
  public static final RouteTable<DocsService> ROUTES =
      RouteTable.<DocsService>builder()
          .get(
              BASE + "/_types",
              "Every declared document type",
              (svc, req) -> HttpResponse.ok(new TypesResponse(svc.types())))
          .get(
              BASE + "/_types/{type}",
              "A document type: fields (kind, family) and parents",
              (svc, req) -> HttpResponse.ok(svc.type(req.pathParam("type"))))
          .admin(
              "PUT",
              BASE + "/_types/{type}",
              "Declare a type or add fields to it (creates its table)",
              (svc, req) ->
                  HttpResponse.ok(
                      svc.putType(typeOf(req.pathParam("type"), req.body(TypeRequest.class)))))
          .post(
              BASE + "/_bulk",
              "Bulk load NDJSON (Elasticsearch _bulk shape); per-document results once durable",
              (svc, req) -> {
                List<BulkItem> items = new ArrayList<>();
                BulkSummary s =
                    svc.bulk(BulkNdjson.actions(new ByteArrayInputStream(req.body())), items::add);
                return HttpResponse.ok(new BulkResponse(s.millis(), s.errors(), items));
              })
          .list(
              DOC + "/comments",
              "Comments of a document, newest (default) or oldest first",
              (svc, req) ->
                  HttpResponse.ok(
                      DocumentsPage.of(
                          svc.comments(
                              req.pathParam("type"),
                              req.pathParam("id"),
                              req.query("childType").orElse(null),
                              req.query("order")
                                  .map(o -> Enums.parse(CommentOrder.class, o, "order"))
                                  .orElse(CommentOrder.NEWEST),
                              req.page(COMMENTS_PAGE)))))
          .post(
              DOC + "/comments",
              "Add a comment to a document",
              (svc, req) ->
                  HttpResponse.created(
                      svc.addComment(
                          req.pathParam("type"),
                          req.pathParam("id"),
                          req.query("childType").orElse(null),
                          req.query("cid").orElse(null),
                          document(req))))
          .list(
              DOC + "/history",
              "A document's changes, newest first (crawl and person), and its corrected fields",
              (svc, req) ->
                  HttpResponse.ok(
                      svc.history(
                          req.pathParam("type"), req.pathParam("id"), req.page(HISTORY_PAGE))))
          .delete(
              DOC + "/corrections/{field}",
              "Drop a person's correction of a field: the next crawl replaces it"
                  + " (If-Match optional; ?editor= names who)",
              (svc, req) ->
                  withEtag(
                      200,
                      svc.dropCorrection(
                          req.pathParam("type"),
                          req.pathParam("id"),
                          req.pathParam("field"),
                          ifMatch(req),
                          editor(req))))
          .post(
              DOC + "/_increment",
              "Add to a long field (views, likes) atomically, without a version",
              (svc, req) -> {
                IncrementRequest inc = req.body(IncrementRequest.class);
                InvalidInputException.check(inc.field() != null, "field", "field is required");
                long value =
                    svc.increment(
                        req.pathParam("type"),
                        req.pathParam("id"),
                        inc.field(),
                        inc.by() == null ? 1 : inc.by());
                return HttpResponse.ok(new IncrementResponse(inc.field(), value));
              })
          .get(
              DOC,
              "A document, both families assembled, with its version as ETag",
              (svc, req) -> withEtag(200, svc.get(req.pathParam("type"), req.pathParam("id"))))
          .put(
              DOC,
              "Store a whole document (If-Match: only over that version, a person's edit;"
                  + " ?editor= names who)",
              (svc, req) -> {
                WriteResult w =
                    svc.put(
                        req.pathParam("type"),
                        req.pathParam("id"),
                        document(req),
                        ifMatch(req),
                        editor(req));
                return withEtag(w.created() ? 201 : 200, w.document());
              })
          .patch(
              DOC,
              "Change some fields (null removes one; If-Match: only over that version, a person's"
                  + " edit; ?editor= names who)",
              (svc, req) ->
                  withEtag(
                      200,
                      svc.patch(
                          req.pathParam("type"),
                          req.pathParam("id"),
                          document(req),
                          ifMatch(req),
                          editor(req))))
          .delete(
              DOC,
              "Delete a document with its comments and index entries",
              (svc, req) -> {
                svc.delete(req.pathParam("type"), req.pathParam("id"), ifMatch(req));
                return HttpResponse.noContent();
              })
          .list(
              BASE + "/{type}",
              "Documents of a type by source site and day (?source=host&day=YYYY-MM-DD)",
              (svc, req) ->
                  HttpResponse.ok(
                      DocumentsPage.of(
                          svc.bySource(
                              req.pathParam("type"),
                              req.query("source").orElse(null),
                              req.query("day").orElse(null),
                              req.page(DOCS_PAGE)))))
          .build();

  private DocsRoutes() {}

  /** A document body: its fields, read by {@link DocumentJson}. */
  private static Map<String, Object> document(HttpRequest req) {
    byte[] body = req.body();
    InvalidInputException.check(
        body.length > 0, "body", "request body is empty; a JSON object is required");
    return DocumentJson.read(body);
  }

  /** The {@code editor} a person's edit names, or null. */
  private static String editor(HttpRequest req) {
    return req.query("editor").orElse(null);
  }

  private static HttpResponse withEtag(int status, Document d) {
    return HttpResponse.json(status, d).withHeader("ETag", d.etag());
  }

  /** The version an {@code If-Match} header names ({@code "7"}, {@code W/"7"} or {@code 7}). */
  static OptionalLong ifMatch(HttpRequest req) {
    if (req.header("If-Match").isEmpty()) {
      return OptionalLong.empty();
    }
    String v = req.header("If-Match").get().trim();
    if (v.startsWith("W/")) {
      v = v.substring(2);
    }
    if (v.length() >= 2 && v.startsWith("\"") && v.endsWith("\"")) {
      v = v.substring(1, v.length() - 1);
    }
    try {
      long version = Long.parseLong(v);
      InvalidInputException.check(version > 0, "If-Match", "If-Match must name a version");
      return OptionalLong.of(version);
    } catch (NumberFormatException e) {
      throw new InvalidInputException(
          "If-Match", "If-Match must be the ETag of a read, like \"7\"; got " + v);
    }
  }

  private static DocType typeOf(String name, TypeRequest body) {
    InvalidInputException.check(body.fields() != null, "fields", "fields are required");
    List<FieldDef> fields = new ArrayList<>();
    for (int i = 0; i < body.fields().size(); i++) {
      FieldRequest f = body.fields().get(i);
      String at = "fields[" + i + "]";
      InvalidInputException.check(f != null, at, "a field is {name, kind, family}");
      InvalidInputException.check(f.kind() != null, at + ".kind", "kind is required");
      InvalidInputException.check(f.family() != null, at + ".family", "family is required");
      fields.add(
          new FieldDef(
              f.name(),
              Enums.parse(FieldKind.class, f.kind(), at + ".kind"),
              Enums.parse(Family.class, f.family().toUpperCase(Locale.ROOT), at + ".family")));
    }
    return new DocType(name, fields, body.parents());
  }
}
