package org.casebook.weibo.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.casebook.core.InvalidInputException;
import org.casebook.core.Json;
import org.casebook.weibo.Follow;
import org.casebook.weibo.Page;
import org.casebook.weibo.WeiboService;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code casebook weibo …}: the feed from the command line; reads print JSON like the REST API. */
@Command(name = "weibo", mixinStandardHelpOptions = true, description = "Social feed (seed 003).")
public final class WeiboCommand {
  private final Supplier<WeiboService> services;

  public WeiboCommand(Supplier<WeiboService> services) {
    this.services = services;
  }

  @Command(name = "publish", mixinStandardHelpOptions = true, description = "Publish a post and fan it out.")
  int publish(@Parameters(paramLabel = "UID") String uid, @Parameters(paramLabel = "CONTENT") String content) {
    try (WeiboService s = services.get()) {
      System.out.println(Json.writePretty(s.publish(uid, content)));
    }
    return 0;
  }

  @Command(name = "follow", mixinStandardHelpOptions = true, description = "UID follows TARGET (back-fills UID's inbox).")
  int follow(@Parameters(paramLabel = "UID") String uid, @Parameters(paramLabel = "TARGET") String target) {
    try (WeiboService s = services.get()) {
      System.out.println(s.follow(uid, target) ? uid + " now follows " + target : uid + " already followed " + target);
    }
    return 0;
  }

  @Command(name = "unfollow", mixinStandardHelpOptions = true, description = "UID stops following TARGET.")
  int unfollow(@Parameters(paramLabel = "UID") String uid, @Parameters(paramLabel = "TARGET") String target) {
    try (WeiboService s = services.get()) {
      System.out.println(s.unfollow(uid, target) ? uid + " no longer follows " + target
          : uid + " did not follow " + target);
    }
    return 0;
  }

  @Command(name = "timeline", mixinStandardHelpOptions = true, description = "Posts of followed accounts, newest first.")
  int timeline(@Parameters(paramLabel = "UID") String uid, @Option(names = "--limit", defaultValue = "20") int limit,
               @Option(names = "--cursor") String cursor) {
    try (WeiboService s = services.get()) {
      print("posts", s.timeline(uid, limit, cursor));
    }
    return 0;
  }

  @Command(name = "posts", mixinStandardHelpOptions = true, description = "A user's own posts, newest first.")
  int posts(@Parameters(paramLabel = "UID") String uid, @Option(names = "--limit", defaultValue = "20") int limit,
            @Option(names = "--cursor") String cursor) {
    try (WeiboService s = services.get()) {
      print("posts", s.posts(uid, limit, cursor));
    }
    return 0;
  }

  @Command(name = "followers", mixinStandardHelpOptions = true, description = "Who follows UID.")
  int followers(@Parameters(paramLabel = "UID") String uid, @Option(names = "--limit", defaultValue = "100") int limit,
                @Option(names = "--cursor") String cursor) {
    try (WeiboService s = services.get()) {
      print("users", s.followers(uid, limit, cursor));
    }
    return 0;
  }

  @Command(name = "following", mixinStandardHelpOptions = true, description = "Whom UID follows.")
  int following(@Parameters(paramLabel = "UID") String uid, @Option(names = "--limit", defaultValue = "100") int limit,
                @Option(names = "--cursor") String cursor) {
    try (WeiboService s = services.get()) {
      print("users", s.following(uid, limit, cursor));
    }
    return 0;
  }

  @Command(name = "stats", mixinStandardHelpOptions = true, description = "Counters and fan-out mode of UID.")
  int stats(@Parameters(paramLabel = "UID") String uid) {
    try (WeiboService s = services.get()) {
      System.out.println(Json.writePretty(s.stats(uid)));
    }
    return 0;
  }

  @Command(name = "import-follows", mixinStandardHelpOptions = true,
      description = "Bulk-import a social graph: one 'follower<TAB>followee' per line (ids cannot contain tabs).")
  int importFollows(@Parameters(paramLabel = "FILE") Path file) {
    List<Follow> edges = new ArrayList<>();
    try {
      int lineNo = 0;
      for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
        lineNo++;
        if (line.isBlank() || line.startsWith("#")) {
          continue;
        }
        String[] parts = line.split("\t", -1);
        InvalidInputException.check(parts.length == 2, "file", file + ":" + lineNo + ": expected 'follower<TAB>followee'");
        edges.add(new Follow(parts[0], parts[1]));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
    }
    try (WeiboService s = services.get()) {
      long added = s.importFollows(edges);
      System.out.println("imported " + added + " new follow(s) of " + edges.size() + " line(s)");
    }
    return 0;
  }

  private static <T> void print(String key, Page<T> page) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put(key, page.items());
    m.put("next", page.next().orElse(null));
    System.out.println(Json.writePretty(m));
  }
}
