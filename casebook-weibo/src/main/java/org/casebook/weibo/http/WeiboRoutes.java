package org.casebook.weibo.http;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.LinkedHashMap;
import java.util.Map;
import org.casebook.core.http.HttpRequest;
import org.casebook.core.http.HttpResponse;
import org.casebook.core.http.HttpRoutes;
import org.casebook.weibo.Page;
import org.casebook.weibo.Post;
import org.casebook.weibo.WeiboService;

/** REST adapter: parse, call the service, render. Ids in paths are percent-decoded segments. */
public final class WeiboRoutes {
  private static final String USER = "/api/weibo/users/{uid}";

  private WeiboRoutes() {}

  public static void register(WeiboService service, HttpRoutes routes) {
    int max = service.config().maxPageSize();
    routes.post(USER + "/posts", req -> {
      JsonNode body = req.jsonObject();
      for (var it = body.fieldNames(); it.hasNext(); ) {
        String f = it.next();
        if (!f.equals("content")) {
          throw new org.casebook.core.InvalidInputException(f, "unknown field '" + f + "'");
        }
      }
      return HttpResponse.created(service.publish(req.pathParam("uid"), HttpRequest.requiredText(body, "content")));
    });
    routes.put(USER + "/following/{target}", req -> {
      service.follow(req.pathParam("uid"), req.pathParam("target"));
      return HttpResponse.noContent();
    });
    routes.delete(USER + "/following/{target}", req -> {
      service.unfollow(req.pathParam("uid"), req.pathParam("target"));
      return HttpResponse.noContent();
    });
    routes.get(USER + "/timeline", req -> HttpResponse.ok(posts(
        service.timeline(req.pathParam("uid"), req.queryInt("limit", 20, 1, max), req.query("cursor").orElse(null)))));
    routes.get(USER + "/posts", req -> HttpResponse.ok(posts(
        service.posts(req.pathParam("uid"), req.queryInt("limit", 20, 1, max), req.query("cursor").orElse(null)))));
    routes.get(USER + "/followers", req -> HttpResponse.ok(users(
        service.followers(req.pathParam("uid"), req.queryInt("limit", 100, 1, max), req.query("cursor").orElse(null)))));
    routes.get(USER + "/following", req -> HttpResponse.ok(users(
        service.following(req.pathParam("uid"), req.queryInt("limit", 100, 1, max), req.query("cursor").orElse(null)))));
    routes.get(USER, req -> HttpResponse.ok(service.stats(req.pathParam("uid"))));
  }

  static Map<String, Object> posts(Page<Post> page) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("posts", page.items());
    m.put("next", page.next().orElse(null));
    return m;
  }

  static Map<String, Object> users(Page<String> page) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("users", page.items());
    m.put("next", page.next().orElse(null));
    return m;
  }
}
