package org.casebook.weibo.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;
import org.casebook.core.Json;
import org.casebook.core.LocalFileException;
import org.casebook.core.cli.PageOptions;
import org.casebook.core.page.PageRequest;
import org.casebook.weibo.Follow;
import org.casebook.weibo.PostImage;
import org.casebook.weibo.WeiboService;
import org.casebook.weibo.wire.FollowLines;
import org.casebook.weibo.wire.PostsPage;
import org.casebook.weibo.wire.UsersPage;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code casebook weibo …}: the feed from the command line; reads print JSON like the REST API. */
@Command(name = "weibo", mixinStandardHelpOptions = true, description = "Social feed (seed 003).")
public final class WeiboCommand {
  private static final int POSTS_PAGE = 20;
  private static final int USERS_PAGE = 100;
  private final Supplier<WeiboService> service;

  /**
   * @param service makes the service a command runs on (HBase is started on the first call), tuned
   *     by the system's settings; each command closes the one it gets
   */
  public WeiboCommand(Supplier<WeiboService> service) {
    this.service = Objects.requireNonNull(service, "service is null");
  }

  private WeiboService service() {
    return service.get();
  }

  @Command(
      name = "publish",
      mixinStandardHelpOptions = true,
      description = "Publish a post (optionally with a title and images) and fan it out.")
  int publish(
      @Parameters(paramLabel = "UID", description = "Author's user id (1-64 characters).")
          String uid,
      @Parameters(paramLabel = "CONTENT", description = "Text of the post (1-2000 characters).")
          String content,
      @Option(
              names = "--title",
              paramLabel = "TITLE",
              description = "Title of the post (one line, 1-100 characters).")
          String title,
      @Option(
              names = "--image",
              paramLabel = "REF[|WxH[|ALT]]",
              description =
                  "An image by reference (an https:// URL or an id of letters, digits, '.', '_',"
                      + " '-'), optionally its size in pixels and alt text; repeat for up to 9.")
          List<String> images) {
    List<PostImage> parsed = ImageSpecs.parse(images == null ? List.of() : images);
    try (WeiboService s = service()) {
      System.out.println(Json.writePretty(s.publish(uid, content, title, parsed)));
    }
    return 0;
  }

  @Command(name = "post", mixinStandardHelpOptions = true, description = "One post of UID.")
  int post(
      @Parameters(paramLabel = "UID", description = "The author's user id.") String uid,
      @Parameters(paramLabel = "POST_ID", description = "The post's id, as publish printed it.")
          String postId) {
    try (WeiboService s = service()) {
      System.out.println(Json.writePretty(s.post(uid, postId)));
    }
    return 0;
  }

  @Command(
      name = "delete-post",
      mixinStandardHelpOptions = true,
      description =
          "Delete a post from its author's posts, the post count and every follower's timeline.")
  int deletePost(
      @Parameters(paramLabel = "UID", description = "The author's user id.") String uid,
      @Parameters(paramLabel = "POST_ID", description = "The post's id, as publish printed it.")
          String postId) {
    try (WeiboService s = service()) {
      s.deletePost(uid, postId);
      System.out.println("deleted post " + postId + " of " + uid);
    }
    return 0;
  }

  @Command(
      name = "follow",
      mixinStandardHelpOptions = true,
      description = "UID follows TARGET (back-fills UID's inbox).")
  int follow(
      @Parameters(paramLabel = "UID", description = "The user who follows.") String uid,
      @Parameters(paramLabel = "TARGET", description = "The account followed.") String target) {
    try (WeiboService s = service()) {
      System.out.println(
          s.follow(uid, target)
              ? uid + " now follows " + target
              : uid + " already followed " + target);
    }
    return 0;
  }

  @Command(
      name = "unfollow",
      mixinStandardHelpOptions = true,
      description = "UID stops following TARGET.")
  int unfollow(
      @Parameters(paramLabel = "UID", description = "The user who unfollows.") String uid,
      @Parameters(paramLabel = "TARGET", description = "The account no longer followed.")
          String target) {
    try (WeiboService s = service()) {
      System.out.println(
          s.unfollow(uid, target)
              ? uid + " no longer follows " + target
              : uid + " did not follow " + target);
    }
    return 0;
  }

  @Command(
      name = "timeline",
      mixinStandardHelpOptions = true,
      description = "Posts of followed accounts, newest first.")
  int timeline(
      @Parameters(paramLabel = "UID", description = "The reader's user id.") String uid,
      @Mixin PageOptions pageOptions) {
    PageRequest page = pageOptions.request(POSTS_PAGE);
    try (WeiboService s = service()) {
      System.out.println(Json.writePretty(PostsPage.of(s.timeline(uid, page))));
    }
    return 0;
  }

  @Command(
      name = "posts",
      mixinStandardHelpOptions = true,
      description = "A user's own posts, newest first.")
  int posts(
      @Parameters(paramLabel = "UID", description = "The author's user id.") String uid,
      @Mixin PageOptions pageOptions) {
    PageRequest page = pageOptions.request(POSTS_PAGE);
    try (WeiboService s = service()) {
      System.out.println(Json.writePretty(PostsPage.of(s.posts(uid, page))));
    }
    return 0;
  }

  @Command(name = "followers", mixinStandardHelpOptions = true, description = "Who follows UID.")
  int followers(
      @Parameters(paramLabel = "UID", description = "The followed user's id.") String uid,
      @Mixin PageOptions pageOptions) {
    PageRequest page = pageOptions.request(USERS_PAGE);
    try (WeiboService s = service()) {
      System.out.println(Json.writePretty(UsersPage.of(s.followers(uid, page))));
    }
    return 0;
  }

  @Command(name = "following", mixinStandardHelpOptions = true, description = "Whom UID follows.")
  int following(
      @Parameters(paramLabel = "UID", description = "The following user's id.") String uid,
      @Mixin PageOptions pageOptions) {
    PageRequest page = pageOptions.request(USERS_PAGE);
    try (WeiboService s = service()) {
      System.out.println(Json.writePretty(UsersPage.of(s.following(uid, page))));
    }
    return 0;
  }

  @Command(
      name = "stats",
      mixinStandardHelpOptions = true,
      description = "Counters and fan-out mode of UID.")
  int stats(@Parameters(paramLabel = "UID", description = "The user's id.") String uid) {
    try (WeiboService s = service()) {
      System.out.println(Json.writePretty(s.stats(uid)));
    }
    return 0;
  }

  @Command(
      name = "import-follows",
      mixinStandardHelpOptions = true,
      description =
          "Bulk-import a social graph: one 'follower<TAB>followee' per line (ids cannot contain tabs).")
  int importFollows(
      @Parameters(
              paramLabel = "FILE",
              description =
                  "UTF-8 file of 'follower<TAB>followee' lines; "
                      + "blank lines and lines starting with # are skipped.")
          Path file) {
    List<String> lines;
    try {
      lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw LocalFileException.of("read", file, e);
    }
    List<Follow> edges = FollowLines.parse(lines, file.toString(), "file");
    try (WeiboService s = service()) {
      long added = s.importFollows(edges);
      System.out.println("imported " + added + " new follow(s) of " + edges.size() + " line(s)");
    }
    return 0;
  }
}
