package org.casebook.weibo;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import org.assertj.core.api.SoftAssertions;
import org.casebook.core.AccessRule;
import org.casebook.core.HBaseRuntime;
import org.casebook.core.Json;
import org.casebook.core.Platform;
import org.casebook.core.chaos.ChaosAction;
import org.casebook.core.schema.TableSpec;
import org.casebook.core.testing.ChaosLoad;
import org.casebook.core.testing.EmbeddedHBase;
import org.casebook.core.testing.ServedSystem;
import org.casebook.core.testing.TestIds;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The feed's REST API under region chaos, the wire twin of {@link WeiboChaosIT}: the system served
 * as {@code serve} serves it, in a namespace of its own ({@code weibo.namespace}), four HTTP
 * clients following, unfollowing and publishing while HBase splits, merges, moves, flushes and
 * compacts its four tables. A write answered 201 or 204 is acknowledged; one answered 503, or not
 * at all, may or may not have taken effect; no good request is answered anything else.
 *
 * <p>The load is laid out so that what must hold is decidable from the answers alone. Each user
 * follows the next one before the chaos starts, and nobody touches those pairs again: they are
 * followed throughout. Of the other pairs, most belong to one client, which changes each one
 * sequentially, so the last acknowledged change decides its state; the rest are changed by every
 * client at once, racing, and only their consistency is checked. A pair with a change answered 503
 * (or not answered) is uncertain, as {@link FeedLoad}'s are: it is finished by the relation repair
 * (run as the served system runs it, once such changes are old enough) and then checked only for
 * consistency. Every post's content is unique, so a stored post is traced to the request that sent
 * it.
 *
 * <p>Afterwards, through the API alone: followers and following list each other one to one and
 * their sizes are the counters {@code GET /api/weibo/users/{uid}} reports; the fixed pairs are
 * followed and each owned, certain pair is in the state of its last change; every acknowledged post
 * is in its author's posts exactly once with its content, and in the timeline of every user
 * following its author (those who followed throughout by name), once; a timeline holds only posts
 * of accounts followed, newest first; nothing is listed that was never sent. An acknowledged post
 * must also be in its author's posts and in the timeline of its fixed follower at once.
 */
@ExtendWith(EmbeddedHBase.class)
class WeiboWireChaosIT {
  private static final long SEED = 37;
  private static final Duration DURATION = Duration.ofSeconds(6);
  private static final Duration PAUSE = Duration.ofMillis(300);
  private static final int CLIENTS = 4;
  private static final int USERS = 8;

  /**
   * Publishes per author at most (failed ones included), below the default back-fill of 200: a new
   * follow copies every post of its target, so a timeline holds all posts of those it follows.
   */
  private static final int MAX_POSTS_PER_USER = 100;

  /** Every post of the run fits one page of this size: the read right after a publish. */
  private static final int WHOLE = 1000;

  /** Small pages for the checks, so that every listing is read through its cursors. */
  private static final int POSTS_PAGE = 13;

  private static final int USERS_PAGE = 3;

  /** Racing pairs change every this many milliseconds, so that the clients meet on each. */
  private static final long RACE_SLOT_MILLIS = 100;

  private static final HttpClient CLIENT =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  /** A follow relation: {@code follower} follows (or not) {@code followee}. */
  private record Pair(String follower, String followee) {
    @Override
    public String toString() {
      return follower + " -> " + followee;
    }
  }

  /** A post as sent and acknowledged, or as listed. */
  private record Sent(String id, String uid, String content) {
    String key() {
      return id + "/" + uid;
    }
  }

  /** What one user's endpoints list once the chaos is over. */
  private record Listed(
      String uid,
      List<String> following,
      List<String> followers,
      long followingCounter,
      long followersCounter,
      long postsCounter,
      List<Sent> posts,
      List<Sent> timeline) {}

  /** The run's users and who changes which pair. */
  private record Layout(
      List<String> users,
      List<Pair> fixed,
      List<List<Pair>> ownedByClient,
      List<Pair> racing,
      Map<String, String> fixedFollowerOf) {
    static Layout of(String run) {
      List<String> users = new ArrayList<>();
      for (int i = 0; i < USERS; i++) {
        users.add(run + ":u" + i);
      }
      List<Pair> fixed = new ArrayList<>();
      Map<String, String> fixedFollowerOf = new HashMap<>();
      List<List<Pair>> owned = new ArrayList<>();
      for (int c = 0; c < CLIENTS; c++) {
        owned.add(new ArrayList<>());
      }
      List<Pair> racing = new ArrayList<>();
      int churn = 0;
      for (int a = 0; a < USERS; a++) {
        for (int b = 0; b < USERS; b++) {
          if (a == b) {
            continue;
          }
          Pair p = new Pair(users.get(a), users.get(b));
          if (b == (a + 1) % USERS) {
            fixed.add(p);
            fixedFollowerOf.put(p.followee(), p.follower());
            continue;
          }
          // Of the other pairs, one in six races; the rest are dealt to the clients in turn.
          int index = churn++;
          if (index % 6 == 5) {
            racing.add(p);
          } else {
            owned.get(index % CLIENTS).add(p);
          }
        }
      }
      return new Layout(
          List.copyOf(users),
          List.copyOf(fixed),
          owned.stream().map(List::copyOf).toList(),
          List.copyOf(racing),
          Map.copyOf(fixedFollowerOf));
    }
  }

  /** What the clients sent and were answered. */
  private static final class Ledger {
    /** "METHOD status" (or "METHOD no answer") → how many. */
    final Map<String, Long> answers = new ConcurrentHashMap<>();

    /** Owned pairs: the direction of their last acknowledged change (true: follow). */
    final Map<Pair, Boolean> lastAcknowledged = new ConcurrentHashMap<>();

    /** Pairs with a change not acknowledged: whether it took effect is unknown. */
    final Set<Pair> uncertain = ConcurrentHashMap.newKeySet();

    /** Acknowledged posts, by {@link Sent#key()}. */
    final Map<String, Sent> published = new ConcurrentHashMap<>();

    /** Per author, the contents of publishes not acknowledged: each may have been stored. */
    final Map<String, Set<String>> failedContents = new ConcurrentHashMap<>();

    /** Per author, publishes sent (the cap). */
    final Map<String, AtomicInteger> attempts = new ConcurrentHashMap<>();

    /** Acknowledged posts that a read right after their 201 did not list. */
    final List<String> unseenAfterAck = Collections.synchronizedList(new ArrayList<>());

    void answer(String method, String status) {
      answers.merge(method + " " + status, 1L, Long::sum);
    }
  }

  @Test
  void followersTimelinesAndPostsKeepTheirPromisesOverHttpWhileRegionsSplitMergeAndMove(
      HBaseRuntime runtime) throws Exception {
    // A namespace of its own: the chaos splits and merges only this test's tables.
    String namespace = TestIds.unique("weibo_wire").replace('-', '_');
    List<TableSpec> tables = WeiboService.schemas(namespace);
    Layout layout = Layout.of(TestIds.unique("ww"));
    Ledger ledger = new Ledger();
    try (ServedSystem served =
        ChaosLoad.afterRecovery(
            () ->
                ServedSystem.start(
                    runtime,
                    new WeiboSystem(),
                    AccessRule.open(),
                    Map.of("weibo.namespace", namespace)))) {
      String base = served.url("/api/weibo/users/");
      // The pairs followed throughout, before any chaos (sent again while a cluster recovers).
      for (Pair p : layout.fixed()) {
        ChaosLoad.afterRecovery(
            () -> {
              HttpResponse<String> r = send("PUT", following(base, p), null);
              if (r.statusCode() == 503) {
                throw new IOException("follow answered 503: " + r.body());
              }
              assertThat(r.statusCode()).as("follow %s: %s", p, r.body()).isEqualTo(204);
              return null;
            });
      }
      ChaosLoad.Report report =
          ChaosLoad.run(
              runtime.connection(),
              tables.stream().map(TableSpec::name).toList(),
              SEED,
              DURATION,
              PAUSE,
              CLIENTS,
              (client, iteration) -> step(base, layout, ledger, client, iteration));

      int failedPublishes = ledger.failedContents.values().stream().mapToInt(Set::size).sum();
      String summary =
          ledger.published.size()
              + " posts acknowledged, "
              + failedPublishes
              + " publishes not; answers "
              + new TreeMap<>(ledger.answers)
              + "; uncertain pairs "
              + ledger.uncertain;
      System.out.println("weibo over HTTP under chaos: " + summary);
      String what = report + summary;
      assertThat(report.done(ChaosAction.SPLIT)).as(what).isPositive();
      assertThat(ledger.published).as(what).isNotEmpty();
      assertThat(ledger.lastAcknowledged).as(what).isNotEmpty();
      assertThat(ledger.answers.keySet())
          .as("answers to good requests other than success, 503 or none " + what)
          .allMatch(
              a ->
                  Set.of("POST 201", "PUT 204", "DELETE 204", "GET 200").contains(a)
                      || a.endsWith(" 503")
                      || a.endsWith(" no answer"));

      if (!ledger.uncertain.isEmpty()) {
        // A follow or unfollow that failed may have stopped after its transition: the served
        // system's repair finishes such changes once they are a minute old (at start and every
        // five minutes). Run it as it runs, on a clock that minute ahead, beside the served one.
        summary += "; repaired after failed changes of " + ledger.uncertain.size() + " pairs";
        Clock ahead =
            Clock.offset(
                Clock.systemUTC(), Duration.ofMillis(2 * WeiboService.REPAIR_MIN_AGE_MILLIS));
        try (Platform platform =
                Platform.builder(runtime, EmbeddedHBase.dataDir()).clock(ahead).build();
            WeiboService repairer =
                new WeiboService(
                    platform.contextFor("weibo-repair"), WeiboConfig.defaults(), namespace)) {
          ChaosLoad.afterRecovery(repairer::repair);
          assertThat(ChaosLoad.afterRecovery(repairer::repair))
              .as("a second repair finds nothing " + what)
              .isZero();
        }
      }

      Map<String, Listed> listed = new LinkedHashMap<>();
      for (String uid : layout.users()) {
        listed.put(uid, ChaosLoad.afterRecovery(() -> read(base, uid)));
      }
      // Each failure names the run's figures; the chaos report is printed above.
      verify(layout, ledger, listed, "\n" + summary);
    } finally {
      ChaosLoad.dropAfterwards(runtime.connection(), namespace);
    }
  }

  /**
   * One step of a client: a publish (three in ten), a change of a racing pair (two in ten), a
   * change of one of the client's own pairs (the rest). A step whose request is not answered with
   * success throws, and is counted by the run.
   */
  private static void step(String base, Layout layout, Ledger ledger, int client, long iteration)
      throws Exception {
    ThreadLocalRandom random = ThreadLocalRandom.current();
    int op = random.nextInt(10);
    if (op < 3) {
      String author = layout.users().get(random.nextInt(USERS));
      if (ledger.attempts.computeIfAbsent(author, k -> new AtomicInteger()).incrementAndGet()
          > MAX_POSTS_PER_USER) {
        // The author has its cap of posts: read a timeline instead.
        HttpResponse<String> r =
            get(ledger, base + enc(layout.users().get(random.nextInt(USERS))) + "/timeline");
        if (r.statusCode() != 200) {
          throw new IllegalStateException("timeline answered " + r.statusCode() + ": " + r.body());
        }
        return;
      }
      publish(base, layout, ledger, author, "client " + client + " step " + iteration);
    } else if (op < 5) {
      // Every client at about the same time takes the same racing pair.
      int slot = (int) (System.currentTimeMillis() / RACE_SLOT_MILLIS % layout.racing().size());
      change(base, ledger, layout.racing().get(slot), op == 3, false);
    } else {
      List<Pair> mine = layout.ownedByClient().get(client);
      change(base, ledger, mine.get(random.nextInt(mine.size())), op < 8, true);
    }
  }

  /** {@code PUT} (follow) or {@code DELETE} (unfollow) of {@code p}'s following relation. */
  private static void change(String base, Ledger ledger, Pair p, boolean follow, boolean owned)
      throws Exception {
    String method = follow ? "PUT" : "DELETE";
    HttpResponse<String> r;
    try {
      r = send(method, following(base, p), null);
    } catch (IOException e) {
      ledger.answer(method, "no answer");
      ledger.uncertain.add(p);
      throw e;
    }
    ledger.answer(method, Integer.toString(r.statusCode()));
    if (r.statusCode() != 204) {
      ledger.uncertain.add(p);
      throw new IllegalStateException(
          method + " " + p + " answered " + r.statusCode() + ": " + r.body());
    }
    if (owned) {
      // One client changes an owned pair, one change after another: the last one acknowledged
      // decides its state (unless a later one failed, which makes the pair uncertain).
      ledger.lastAcknowledged.put(p, follow);
    }
  }

  /**
   * Publishes a post with content unique to this request; once acknowledged, reads it back at once
   * from its author's posts and from the timeline of the author's fixed follower.
   */
  private static void publish(
      String base, Layout layout, Ledger ledger, String author, String sender) throws Exception {
    String content = "post by " + author + " from " + sender;
    HttpResponse<String> r;
    try {
      r =
          send(
              "POST",
              base + enc(author) + "/posts",
              Json.mapper().writeValueAsString(Map.of("content", content)));
    } catch (IOException e) {
      ledger.answer("POST", "no answer");
      failed(ledger, author, content);
      throw e;
    }
    ledger.answer("POST", Integer.toString(r.statusCode()));
    if (r.statusCode() != 201) {
      failed(ledger, author, content);
      throw new IllegalStateException("publish answered " + r.statusCode() + ": " + r.body());
    }
    JsonNode post = Json.mapper().readTree(r.body());
    Sent sent = new Sent(post.get("id").asText(), post.get("uid").asText(), content);
    if (!sent.uid().equals(author) || !post.get("content").asText().equals(content)) {
      throw new AssertionError("publish of " + author + " answered another post: " + r.body());
    }
    ledger.published.put(sent.key(), sent);
    for (String listing :
        List.of(
            base + enc(author) + "/posts?limit=" + WHOLE,
            base + enc(layout.fixedFollowerOf().get(author)) + "/timeline?limit=" + WHOLE)) {
      HttpResponse<String> q = get(ledger, listing);
      if (q.statusCode() == 200 && !posts(q).contains(sent)) {
        ledger.unseenAfterAck.add(sent.key() + " not in " + listing);
      }
    }
  }

  private static void failed(Ledger ledger, String author, String content) {
    ledger.failedContents.computeIfAbsent(author, k -> ConcurrentHashMap.newKeySet()).add(content);
  }

  /** Every listing and counter of {@code uid}, each listing read page by page. */
  private static Listed read(String base, String uid) throws Exception {
    String user = base + enc(uid);
    JsonNode stats = Json.mapper().readTree(checked(user).body());
    List<String> following = new ArrayList<>();
    all(user + "/following", USERS_PAGE, "users").forEach(n -> following.add(n.asText()));
    List<String> followers = new ArrayList<>();
    all(user + "/followers", USERS_PAGE, "users").forEach(n -> followers.add(n.asText()));
    List<Sent> posts = new ArrayList<>();
    all(user + "/posts", POSTS_PAGE, "posts").forEach(n -> posts.add(sent(n)));
    List<Sent> timeline = new ArrayList<>();
    all(user + "/timeline", POSTS_PAGE, "posts").forEach(n -> timeline.add(sent(n)));
    return new Listed(
        uid,
        following,
        followers,
        stats.get("following").asLong(),
        stats.get("followers").asLong(),
        stats.get("posts").asLong(),
        posts,
        timeline);
  }

  /** Checks every promise and reports every violation, not only the first. */
  private static void verify(
      Layout layout, Ledger ledger, Map<String, Listed> listed, String context) {
    SoftAssertions softly = new SoftAssertions();
    softly
        .assertThat(ledger.unseenAfterAck)
        .as("acknowledged posts a read right after missed%s", context)
        .isEmpty();
    Set<Pair> racing = Set.copyOf(layout.racing());
    // Relations: one to one, counted, and as the load decided them.
    for (Listed a : listed.values()) {
      softly
          .assertThat(a.following())
          .as("following of %s, no repeats%s", a.uid(), context)
          .doesNotHaveDuplicates();
      softly
          .assertThat(a.followers())
          .as("followers of %s, no repeats%s", a.uid(), context)
          .doesNotHaveDuplicates();
      softly
          .assertThat(a.followingCounter())
          .as("following counter of %s against its listing%s", a.uid(), context)
          .isEqualTo(a.following().size());
      softly
          .assertThat(a.followersCounter())
          .as("followers counter of %s against its listing%s", a.uid(), context)
          .isEqualTo(a.followers().size());
      softly
          .assertThat(a.following())
          .as("%s follows only users of the run%s", a.uid(), context)
          .allMatch(listed::containsKey);
      softly
          .assertThat(a.followers())
          .as("%s is followed only by users of the run%s", a.uid(), context)
          .allMatch(listed::containsKey);
      for (Listed b : listed.values()) {
        if (a.uid().equals(b.uid())) {
          continue;
        }
        Pair p = new Pair(a.uid(), b.uid());
        boolean follows = a.following().contains(b.uid());
        softly
            .assertThat(b.followers().contains(a.uid()))
            .as("%s on both sides (following: %s)%s", p, follows, context)
            .isEqualTo(follows);
        Boolean last = ledger.lastAcknowledged.get(p);
        if (layout.fixed().contains(p)) {
          softly.assertThat(follows).as("%s, followed throughout%s", p, context).isTrue();
        } else if (!racing.contains(p) && !ledger.uncertain.contains(p)) {
          softly
              .assertThat(follows)
              .as("%s, owned by one client, last acknowledged change %s%s", p, last, context)
              .isEqualTo(last != null && last);
        }
      }
    }
    // Posts: each acknowledged one once in its author's posts; nothing that was never sent.
    Map<String, Sent> stored = new HashMap<>();
    for (Listed a : listed.values()) {
      List<Sent> acknowledged =
          ledger.published.values().stream().filter(s -> s.uid().equals(a.uid())).toList();
      Set<String> failed = ledger.failedContents.getOrDefault(a.uid(), Set.of());
      softly
          .assertThat(a.posts())
          .as("posts of %s, each acknowledged one%s", a.uid(), context)
          .containsAll(acknowledged);
      softly
          .assertThat(a.posts().stream().map(Sent::content).toList())
          .as("posts of %s, each sent once at most%s", a.uid(), context)
          .doesNotHaveDuplicates();
      softly
          .assertThat(a.posts())
          .as("posts of %s, only their own%s", a.uid(), context)
          .allMatch(s -> s.uid().equals(a.uid()));
      List<Sent> unacknowledged =
          a.posts().stream().filter(s -> !ledger.published.containsKey(s.key())).toList();
      softly
          .assertThat(unacknowledged)
          .as(
              "posts of %s not acknowledged: only of its %d failed publishes%s",
              a.uid(), failed.size(), context)
          .allMatch(s -> failed.contains(s.content()));
      softly
          .assertThat(a.posts())
          .as("posts of %s, newest first%s", a.uid(), context)
          .extracting(s -> Long.parseLong(s.id()))
          .isSortedAccordingTo((x, y) -> Long.compare(y, x));
      if (failed.isEmpty()) {
        softly
            .assertThat(a.postsCounter())
            .as("post counter of %s%s", a.uid(), context)
            .isEqualTo(a.posts().size());
      } else {
        softly
            .assertThat(a.postsCounter())
            .as("post counter of %s, with %d publishes failed%s", a.uid(), failed.size(), context)
            .isBetween((long) acknowledged.size(), (long) a.posts().size());
      }
      a.posts().forEach(s -> stored.put(s.key(), s));
    }
    // Timelines: exactly the acknowledged posts of the accounts followed, once, newest first; of
    // the posts whose publish failed, only stored ones of accounts followed.
    for (Listed a : listed.values()) {
      Set<String> followed = new HashSet<>(a.following());
      List<Sent> expected =
          ledger.published.values().stream().filter(s -> followed.contains(s.uid())).toList();
      softly
          .assertThat(a.timeline().stream().map(Sent::key).toList())
          .as("timeline of %s, no repeats%s", a.uid(), context)
          .doesNotHaveDuplicates();
      softly
          .assertThat(a.timeline())
          .as(
              "timeline of %s, every acknowledged post of the accounts followed%s",
              a.uid(), context)
          .containsAll(expected);
      softly
          .assertThat(a.timeline())
          .as("timeline of %s, only posts stored, of accounts followed%s", a.uid(), context)
          .allMatch(s -> s.equals(stored.get(s.key())) && followed.contains(s.uid()));
      softly
          .assertThat(a.timeline())
          .as("timeline of %s, newest first%s", a.uid(), context)
          .extracting(s -> Long.parseLong(s.id()))
          .isSortedAccordingTo((x, y) -> Long.compare(y, x));
    }
    // The brief's own words, by name: a post reaches every user who followed its author all along.
    for (Pair p : layout.fixed()) {
      List<Sent> byFollowee =
          ledger.published.values().stream().filter(s -> s.uid().equals(p.followee())).toList();
      softly
          .assertThat(listed.get(p.follower()).timeline())
          .as("timeline of %s, who followed %s throughout%s", p.follower(), p.followee(), context)
          .containsAll(byFollowee);
    }
    softly.assertAll();
  }

  /** Every item of a listing, {@code limit} at a time through its cursors. */
  private static List<JsonNode> all(String url, int limit, String field) throws Exception {
    List<JsonNode> out = new ArrayList<>();
    String cursor = null;
    do {
      String page = url + "?limit=" + limit + (cursor == null ? "" : "&cursor=" + enc(cursor));
      JsonNode body = Json.mapper().readTree(checked(page).body());
      body.get(field).forEach(out::add);
      JsonNode next = body.get("next");
      cursor = next == null || next.isNull() ? null : next.asText();
    } while (cursor != null);
    return out;
  }

  /** A GET answered 200; a 503 is an {@link IOException}, so that the check is read again. */
  private static HttpResponse<String> checked(String url) throws Exception {
    HttpResponse<String> r = send("GET", url, null);
    if (r.statusCode() == 503) {
      throw new IOException("GET " + url + " answered 503: " + r.body());
    }
    assertThat(r.statusCode()).as("GET %s: %s", url, r.body()).isEqualTo(200);
    return r;
  }

  /** A GET during the load, its answer counted. */
  private static HttpResponse<String> get(Ledger ledger, String url) throws Exception {
    try {
      HttpResponse<String> r = send("GET", url, null);
      ledger.answer("GET", Integer.toString(r.statusCode()));
      return r;
    } catch (IOException e) {
      ledger.answer("GET", "no answer");
      throw e;
    }
  }

  private static List<Sent> posts(HttpResponse<String> r) throws IOException {
    List<Sent> out = new ArrayList<>();
    Json.mapper().readTree(r.body()).get("posts").forEach(n -> out.add(sent(n)));
    return out;
  }

  private static Sent sent(JsonNode post) {
    return new Sent(
        post.get("id").asText(), post.get("uid").asText(), post.get("content").asText());
  }

  private static String following(String base, Pair p) {
    return base + enc(p.follower()) + "/following/" + enc(p.followee());
  }

  private static String enc(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
  }

  private static HttpResponse<String> send(String method, String url, String body)
      throws IOException, InterruptedException {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create(url))
            .timeout(Duration.ofSeconds(60))
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body));
    if (body != null) {
      b.header("Content-Type", "application/json");
    }
    return CLIENT.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }
}
