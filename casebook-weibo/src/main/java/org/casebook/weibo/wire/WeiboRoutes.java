package org.casebook.weibo.wire;

import java.util.ArrayList;
import java.util.List;
import org.casebook.core.InvalidInputException;
import org.casebook.core.http.HttpResponse;
import org.casebook.core.http.RouteTable;
import org.casebook.weibo.PostImage;
import org.casebook.weibo.WeiboService;

/** REST adapter: parse, call the service, render. Ids in paths are percent-decoded segments. */
public final class WeiboRoutes {
  private static final String USER = "/api/weibo/users/{uid}";
  private static final int POSTS_PAGE = 20;
  private static final int USERS_PAGE = 100;

  /**
   * Body of a publish request: {@code title} and {@code images} may be left out (or null) for none.
   */
  record PublishRequest(String content, String title, List<ImageRequest> images) {
    /** The images as the service takes them (null stays null, for the service to name). */
    List<PostImage> postImages() {
      if (images == null) {
        return null;
      }
      List<PostImage> out = new ArrayList<>(images.size());
      for (int i = 0; i < images.size(); i++) {
        ImageRequest image = images.get(i);
        String field = "images[" + i + "]";
        out.add(
            image == null
                ? null
                : new PostImage(
                    image.ref(),
                    pixels(image.width(), field + ".width"),
                    pixels(image.height(), field + ".height"),
                    image.alt()));
      }
      return out;
    }
  }

  /**
   * One image of a publish request. Sizes bind as any number so that a fraction is refused rather
   * than cut to an int, as the shared mapper would.
   */
  record ImageRequest(String ref, Number width, Number height, String alt) {}

  private static Integer pixels(Number value, String field) {
    if (value == null) {
      return null;
    }
    InvalidInputException.check(
        value instanceof Integer, field, field + " must be a whole number of pixels, got " + value);
    return value.intValue();
  }

  /** Every route of the feed, declared once (the descriptor lists them, start binds them). */
  public static final RouteTable<WeiboService> ROUTES =
      RouteTable.<WeiboService>builder()
          .post(
              USER + "/posts",
              "Publish a post and deliver it to followers",
              (svc, req) -> {
                PublishRequest body = req.body(PublishRequest.class);
                return HttpResponse.created(
                    svc.publish(
                        req.pathParam("uid"), body.content(), body.title(), body.postImages()));
              })
          .get(
              USER + "/posts/{postId}",
              "One post of the user, with its title and images",
              (svc, req) ->
                  HttpResponse.ok(svc.post(req.pathParam("uid"), req.pathParam("postId"))))
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
