package org.casebook.archive.http;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.casebook.archive.ArchiveService;
import org.casebook.archive.StatusRecord;
import org.casebook.core.InvalidInputException;
import org.casebook.core.NotFoundException;
import org.casebook.core.http.HttpResponse;
import org.casebook.core.http.HttpRoutes;

/** REST adapter of the archive. */
public final class ArchiveRoutes {
  private ArchiveRoutes() {}

  public static void register(ArchiveService service, HttpRoutes routes) {
    routes.get("/api/archive/users/{uid}", req -> {
      String uid = req.pathParam("uid");
      return HttpResponse.ok(service.user(uid).orElseThrow(() -> new NotFoundException("no user " + uid + " in the archive")));
    });
    routes.get("/api/archive/users/{uid}/statuses", req -> {
      String uid = req.pathParam("uid");
      int limit = req.queryInt("limit", 20, 1, 1000);
      long before = req.query("cursor").map(c -> parseId(c, "cursor")).orElse(0L);
      List<StatusRecord> page = service.statuses(uid, before, limit + 1);
      Map<String, Object> out = new LinkedHashMap<>();
      out.put("statuses", page.subList(0, Math.min(limit, page.size())));
      out.put("next", page.size() > limit ? Long.toString(page.get(limit - 1).id()) : null);
      return HttpResponse.ok(out);
    });
    routes.get("/api/archive/statuses/{id}", req -> {
      long id = parseId(req.pathParam("id"), "id");
      return HttpResponse.ok(service.status(id).orElseThrow(() -> new NotFoundException("no status " + id + " in the archive")));
    });
  }

  static long parseId(String v, String field) {
    InvalidInputException.check(v.matches("[1-9][0-9]{0,18}"), field, field + " must be a positive integer id");
    try {
      return Long.parseLong(v);
    } catch (NumberFormatException e) {
      throw new InvalidInputException(field, field + " is out of range");
    }
  }
}
