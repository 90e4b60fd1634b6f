package org.casebook.weibo.wire;

import org.casebook.core.http.HttpResponse;
import org.casebook.core.http.RouteTable;
import org.casebook.weibo.WeiboService;

/** REST adapter: parse, call the service, render. Ids in paths are percent-decoded segments. */
public final class WeiboRoutes {
  private static final String USER = "/api/weibo/users/{uid}";
  private static final int POSTS_PAGE = 20;
  private static final int USERS_PAGE = 100;

  /** Body of a publish request. */
  record PublishRequest(String content) {}

  /** Every route of the feed, declared once (the descriptor lists them, start binds them). */
  public static final RouteTable<WeiboService> ROUTES =
      RouteTable.<WeiboService>builder()
          .post(
              USER + "/posts",
              "Publish a post and deliver it to followers",
              (svc, req) ->
                  HttpResponse.created(
                      svc.publish(req.pathParam("uid"), req.body(PublishRequest.class).content())))
          .delete(
              USER + "/posts/{postId}",
              "Delete a post from the user's posts and every follower's timeline",
              (svc, req) -> {
                svc.deletePost(req.pathParam("uid"), req.pathParam("postId"));
                return HttpResponse.noContent();
              })
          .put(
              USER + "/following/{target}",
              "Follow target (back-fills the timeline)",
              (svc, req) -> {
                svc.follow(req.pathParam("uid"), req.pathParam("target"));
                return HttpResponse.noContent();
              })
          .delete(
              USER + "/following/{target}",
              "Unfollow target (removes its posts from the timeline)",
              (svc, req) -> {
                svc.unfollow(req.pathParam("uid"), req.pathParam("target"));
                return HttpResponse.noContent();
              })
          .list(
              USER + "/timeline",
              "Posts of followed accounts, newest first",
              (svc, req) ->
                  HttpResponse.ok(
                      PostsPage.of(svc.timeline(req.pathParam("uid"), req.page(POSTS_PAGE)))))
          .list(
              USER + "/posts",
              "The user's own posts, newest first",
              (svc, req) ->
                  HttpResponse.ok(
                      PostsPage.of(svc.posts(req.pathParam("uid"), req.page(POSTS_PAGE)))))
          .list(
              USER + "/followers",
              "Who follows the user",
              (svc, req) ->
                  HttpResponse.ok(
                      UsersPage.of(svc.followers(req.pathParam("uid"), req.page(USERS_PAGE)))))
          .list(
              USER + "/following",
              "Whom the user follows",
              (svc, req) ->
                  HttpResponse.ok(
                      UsersPage.of(svc.following(req.pathParam("uid"), req.page(USERS_PAGE)))))
          .get(
              USER,
              "Counters and fan-out mode of the user",
              (svc, req) -> HttpResponse.ok(svc.stats(req.pathParam("uid"))))
          .build();

  private WeiboRoutes() {}
}
