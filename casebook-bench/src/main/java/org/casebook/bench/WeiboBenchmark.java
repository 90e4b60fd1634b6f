package org.casebook.bench;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.apache.hadoop.hbase.client.Connection;
import org.casebook.core.InvalidInputException;
import org.casebook.core.SystemContext;
import org.casebook.core.cli.Progress;
import org.casebook.core.page.Page;
import org.casebook.core.page.PageRequest;
import org.casebook.core.schema.SchemaManager;
import org.casebook.core.schema.TableSpec;
import org.casebook.weibo.Follow;
import org.casebook.weibo.Post;
import org.casebook.weibo.WeiboConfig;
import org.casebook.weibo.WeiboService;
import picocli.CommandLine.Option;

/**
 * {@code bench weibo}: a heavy-tailed social graph (a few very large accounts, fixed groups of
 * accounts with 10, 100 and 1,000 followers, and a Zipf-like crowd), then publish latency by
 * follower count, follow back-fill, and timeline reads, next to the raw HBase ceiling. Runs in its
 * own namespace, dropped at the end.
 */
final class WeiboBenchmark {
  static final String NAMESPACE = "casebook_bench_weibo";

  /** Sizes; the defaults finish in a few minutes on a 2-core machine. */
  static final class Options {
    @Option(
        paramLabel = "N",
        names = "--users",
        defaultValue = "10000",
        description = "Users in the graph (default ${DEFAULT-VALUE}).")
    int users;

    @Option(
        paramLabel = "N",
        names = "--threshold",
        defaultValue = "2000",
        description = "Fan-out threshold for this run (default ${DEFAULT-VALUE}).")
    int threshold;

    @Option(
        paramLabel = "N",
        names = "--stars",
        defaultValue = "3",
        description = "Accounts above the threshold (default ${DEFAULT-VALUE}).")
    int stars;

    @Option(
        paramLabel = "N",
        names = "--publishes",
        defaultValue = "500",
        description = "Timed publishes per follower-count group (default ${DEFAULT-VALUE}).")
    int publishes;

    @Option(
        paramLabel = "N",
        names = "--follows",
        defaultValue = "300",
        description = "Timed follows with back-fill (default ${DEFAULT-VALUE}).")
    int follows;

    @Option(
        paramLabel = "N",
        names = "--reads",
        defaultValue = "3000",
        description = "Timed timeline reads (default ${DEFAULT-VALUE}).")
    int reads;

    @Option(
        paramLabel = "N",
        names = "--raw-rows",
        defaultValue = "100000",
        description =
            "Rows for the raw ceiling measured in the same run; 0 skips it (default ${DEFAULT-VALUE}).")
    int rawRows;

    @Option(names = "--keep", description = "Keep the benchmark namespace's tables afterwards.")
    boolean keep;

    void validate() {
      InvalidInputException.check(users >= 2000, "users", "--users must be at least 2000");
      InvalidInputException.check(
          threshold >= 10 && threshold < users, "threshold", "--threshold must be 10..users-1");
      InvalidInputException.check(stars >= 0 && stars <= 100, "stars", "--stars must be 0..100");
      InvalidInputException.check(publishes >= 10, "publishes", "--publishes must be at least 10");
      InvalidInputException.check(follows >= 10, "follows", "--follows must be at least 10");
      InvalidInputException.check(reads >= 10, "reads", "--reads must be at least 10");
      InvalidInputException.check(
          rawRows == 0 || rawRows >= 1000, "raw-rows", "--raw-rows must be 0 or at least 1000");
    }

    Map<String, Object> toJson() {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("users", users);
      m.put("threshold", threshold);
      m.put("stars", stars);
      m.put("publishes", publishes);
      m.put("follows", follows);
      m.put("reads", reads);
      m.put("rawRows", rawRows);
      return m;
    }
  }

  private final SystemContext context;
  private final Connection connection;
  private final Options o;
  private final SplittableRandom rnd = new SplittableRandom(2026);

  WeiboBenchmark(SystemContext context, Options options) {
    this.context = context;
    this.connection = context.connection();
    this.o = options;
    options.validate();
  }

  Map<String, Object> run() {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("options", o.toJson());
    BenchTable table =
        new BenchTable("bench weibo: " + o.users + " users, threshold " + o.threshold);
    RawBenchmark.Figures raw = null;
    if (o.rawRows > 0) {
      raw = RawBenchmark.ceiling(connection, o.rawRows);
      json.put("raw", raw.table().toJson());
    }
    SchemaManager schemas = new SchemaManager(connection);
    List<TableSpec> specs = WeiboService.schemas(NAMESPACE);
    specs.forEach(s -> schemas.drop(s.name()));
    schemas.ensureAll(specs);
    try (WeiboService weibo =
        new WeiboService(
            context, WeiboConfig.defaults().withFanOutThreshold(o.threshold), NAMESPACE)) {
      Graph g = buildGraph(o.users, o.threshold, o.stars, rnd);
      long t0 = System.nanoTime();
      long added = weibo.importFollows(g.edges);
      table.add(
          "import graph (both sides + counters)",
          added,
          "edges",
          (System.nanoTime() - t0) / 1e9,
          null,
          o.stars + " accounts promoted to fan-out on read");

      Map<String, List<String>> groups = new LinkedHashMap<>();
      groups.put("10 followers", g.tens);
      groups.put("100 followers", g.hundreds);
      groups.put("1,000 followers", g.thousands);
      groups.put(
          String.format(Locale.ROOT, "%,d followers (read-merged)", g.starFollowers), g.stars);
      for (Map.Entry<String, List<String>> group : groups.entrySet()) {
        if (group.getValue().isEmpty()) {
          continue;
        }
        Latency lat = new Latency();
        long start = System.nanoTime();
        for (int i = 0; i < o.publishes; i++) {
          String author = group.getValue().get(i % group.getValue().size());
          long s = System.nanoTime();
          weibo.publish(
              author,
              "post " + i + " by " + author + " — benchmark content of a typical length, 短文本");
          lat.recordNanos(System.nanoTime() - s);
        }
        table.add(
            "publish, author with " + group.getKey(),
            o.publishes,
            "posts",
            (System.nanoTime() - start) / 1e9,
            lat,
            "");
      }
      // A crowd of ordinary posts so that most inboxes have a page or more.
      try (Progress p = Progress.start("crowd posts", g.crowd.size(), "posts")) {
        for (String u : g.crowd) {
          weibo.publish(u, "crowd post by " + u);
          p.advance(1);
        }
      }

      Latency follow = new Latency();
      Latency unfollow = new Latency();
      long fStart = System.nanoTime();
      long uSeconds = 0;
      for (int i = 0; i < o.follows; i++) {
        String who = "u" + rnd.nextInt(o.users);
        String target = g.thousands.get(i % g.thousands.size());
        if (who.equals(target)) {
          continue;
        }
        long s = System.nanoTime();
        boolean created = weibo.follow(who, target);
        follow.recordNanos(System.nanoTime() - s);
        if (created) {
          s = System.nanoTime();
          weibo.unfollow(who, target);
          long d = System.nanoTime() - s;
          unfollow.recordNanos(d);
          uSeconds += d;
        }
      }
      double followSecs = (System.nanoTime() - fStart) / 1e9 - uSeconds / 1e9;
      int postsPerTarget = Math.max(1, o.publishes / Math.max(1, g.thousands.size()));
      table.add(
          "follow + back-fill (" + postsPerTarget + " posts)",
          follow.count(),
          "follows",
          followSecs,
          follow,
          "");
      table.add(
          "unfollow + inbox clean-up", unfollow.count(), "unfollows", uSeconds / 1e9, unfollow, "");

      Latency first = new Latency();
      Latency second = new Latency();
      Latency merged = new Latency();
      long posts = 0;
      long rStart = System.nanoTime();
      for (int i = 0; i < o.reads; i++) {
        String reader = g.readers.get(rnd.nextInt(g.readers.size()));
        long s = System.nanoTime();
        Page<Post> page = weibo.timeline(reader, PageRequest.first(20));
        long d = System.nanoTime() - s;
        (g.starFans.contains(reader) ? merged : first).recordNanos(d);
        posts += page.items().size();
        if (page.next().isPresent()) {
          s = System.nanoTime();
          posts += weibo.timeline(reader, new PageRequest(20, page.next())).items().size();
          second.recordNanos(System.nanoTime() - s);
        }
      }
      double rSecs = (System.nanoTime() - rStart) / 1e9;
      Latency all = new Latency();
      all.add(first);
      all.add(merged);
      table.add(
          "timeline, first 20 (all readers)",
          all.count(),
          "reads",
          rSecs,
          all,
          String.format(
              Locale.ROOT,
              "%.1f posts per page on average",
              (double) posts / (all.count() + second.count())));
      table.add("  readers without read-merged follows", first.count(), "reads", 0, first, "");
      table.add(
          "  readers following a read-merged account", merged.count(), "reads", 0, merged, "");
      table.add("timeline, next 20 (cursor)", second.count(), "reads", 0, second, "");
      json.put(
          "graph",
          Map.of("edges", added, "starFollowers", g.starFollowers, "crowdPosts", g.crowd.size()));
    } finally {
      if (!o.keep) {
        specs.forEach(s -> schemas.drop(s.name()));
        schemas.dropNamespace(NAMESPACE);
      }
    }
    json.put("results", table.toJson());
    System.out.println();
    if (raw != null) {
      System.out.print(raw.table().render());
      System.out.println();
    }
    System.out.print(table.render());
    if (raw != null) {
      System.out.println();
      System.out.print(ratios(table, raw, json));
    }
    return json;
  }

  private String ratios(BenchTable table, RawBenchmark.Figures raw, Map<String, Object> json) {
    StringBuilder sb = new StringBuilder("ratios to the raw ceiling measured above:\n");
    Map<String, Object> r = new LinkedHashMap<>();
    for (BenchTable.Row row : table.rows()) {
      if (row.step().startsWith("publish, author with 1,000")) {
        double perFollowerUs = row.latency().millis(50) * 1000 / 1000;
        double rawUs = 1e6 / raw.writeCellsPerSecond();
        sb.append(
            String.format(
                Locale.ROOT,
                "  publish to 1,000 followers: %.1f µs per inbox write at p50, raw "
                    + "BufferedMutator %.1f µs per cell (%.1fx)%n",
                perFollowerUs,
                rawUs,
                perFollowerUs / rawUs));
        r.put("publish1000PerFollowerUsVsRawCellUs", List.of(perFollowerUs, rawUs));
      }
      if (row.step().contains("(read-merged)")) {
        sb.append(
            String.format(
                Locale.ROOT,
                "  publish when read-merged: p50 %.2f ms, p99 %.2f ms = %.1fx / %.1fx a "
                    + "single raw Put (p50 %.2f, p99 %.2f ms); a conditional put beside the outbox cell and the counter%n",
                row.latency().millis(50),
                row.latency().millis(99),
                row.latency().millis(50) / raw.singlePut().millis(50),
                row.latency().millis(99) / raw.singlePut().millis(99),
                raw.singlePut().millis(50),
                raw.singlePut().millis(99)));
        r.put(
            "readMergedPublishP99VsRawPutP99",
            List.of(row.latency().millis(99), raw.singlePut().millis(99)));
      }
      if (row.step().startsWith("timeline, first 20")) {
        sb.append(
            String.format(
                Locale.ROOT,
                "  timeline p99 %.2f ms = %.1fx a single raw Get's p99 (%.2f ms); "
                    + "it costs a multi-get of the reader's inbox row (entries + markers), a batched Get of the bodies, "
                    + "and a multi-get of outboxes for readers of read-merged accounts%n",
                row.latency().millis(99),
                row.latency().millis(99) / raw.singleGet().millis(99),
                raw.singleGet().millis(99)));
        r.put(
            "timelineP99VsRawGetP99",
            List.of(row.latency().millis(99), raw.singleGet().millis(99)));
      }
    }
    json.put("ratios", r);
    return sb.toString();
  }

  /** The generated graph and the user groups the measurements draw from. */
  static final class Graph {
    final List<Follow> edges = new ArrayList<>();
    final List<String> stars = new ArrayList<>();
    final List<String> thousands = new ArrayList<>();
    final List<String> hundreds = new ArrayList<>();
    final List<String> tens = new ArrayList<>();
    final List<String> crowd = new ArrayList<>();
    final List<String> readers = new ArrayList<>();
    final Set<String> starFans = new HashSet<>();
    int starFollowers;
  }

  /**
   * The benchmark's graph of {@code users}: {@code stars} accounts with 1.5 × {@code threshold}
   * followers, 10 with 1,000, 20 with 100, 50 with 10, and a heavy-tailed crowd ({@code bench
   * console} loads it too).
   */
  static Graph buildGraph(int users, int threshold, int stars, SplittableRandom rnd) {
    Graph g = new Graph();
    int n = users;
    int next = 0;
    g.starFollowers = Math.min(n - 1, (int) (threshold * 1.5));
    for (int i = 0; i < stars; i++) {
      g.stars.add("u" + next++);
    }
    for (int i = 0; i < 10; i++) {
      g.thousands.add("u" + next++);
    }
    for (int i = 0; i < 20; i++) {
      g.hundreds.add("u" + next++);
    }
    for (int i = 0; i < 50; i++) {
      g.tens.add("u" + next++);
    }
    int firstCrowd = next;
    Set<String> readerSet = new HashSet<>();
    addFollowers(rnd, users, g, g.stars, g.starFollowers, readerSet, true);
    addFollowers(rnd, users, g, g.thousands, 1000, readerSet, false);
    addFollowers(rnd, users, g, g.hundreds, 100, readerSet, false);
    addFollowers(rnd, users, g, g.tens, 10, readerSet, false);
    // The crowd: each user follows a heavy-tailed number of crowd accounts chosen with Zipf-like
    // weights.
    int crowdSize = n - firstCrowd;
    for (int u = 0; u < n; u++) {
      int follows = (int) Math.min(200, Math.floor(2 / Math.pow(1 - rnd.nextDouble(), 0.7)));
      for (int k = 0; k < follows; k++) {
        int rank =
            (int) Math.min(crowdSize - 1, Math.floor(Math.pow(crowdSize, rnd.nextDouble())) - 1);
        String target = "u" + (firstCrowd + Math.max(0, rank));
        String follower = "u" + u;
        if (!follower.equals(target)) {
          g.edges.add(new Follow(follower, target));
          readerSet.add(follower);
        }
      }
    }
    for (int i = 0; i < Math.min(crowdSize, 3000); i++) {
      g.crowd.add(
          "u"
              + (firstCrowd
                  + Math.min(
                      crowdSize - 1, (int) Math.floor(Math.pow(crowdSize, rnd.nextDouble())) - 1)));
    }
    g.readers.addAll(readerSet);
    g.readers.sort(null);
    return g;
  }

  private static void addFollowers(
      SplittableRandom rnd,
      int users,
      Graph g,
      List<String> accounts,
      int count,
      Set<String> readers,
      boolean stars) {
    for (String account : accounts) {
      Set<Integer> picked = new HashSet<>();
      while (picked.size() < count) {
        int f = rnd.nextInt(users);
        if (!("u" + f).equals(account)) {
          picked.add(f);
        }
      }
      for (int f : picked) {
        String follower = "u" + f;
        g.edges.add(new Follow(follower, account));
        readers.add(follower);
        if (stars) {
          g.starFans.add(follower);
        }
      }
    }
  }
}
