package org.casebook.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import org.casebook.archive.ArchiveService;
import org.casebook.archive.ImportMode;
import org.casebook.archive.ImportRequest;
import org.casebook.archive.gen.ArchiveGenerator;
import org.casebook.core.LocalFileException;
import org.casebook.core.SystemContext;
import org.casebook.core.cli.Progress;
import org.casebook.core.page.PageRequest;
import org.casebook.trails.Behaviours;
import org.casebook.trails.HistoryTables;
import org.casebook.trails.IngestOptions;
import org.casebook.trails.IngestReport;
import org.casebook.trails.TrailQuery;
import org.casebook.trails.TrailsService;
import org.casebook.trails.gen.LogGenerator;
import org.casebook.trails.wire.LogParser;
import org.casebook.weibo.WeiboConfig;
import org.casebook.weibo.WeiboService;

/**
 * {@code bench console}'s data of the seeds' feed and log systems (trails, weibo, archive): each
 * generated at its generator's defaults and loaded through the system's Java API, as its CLI does.
 */
final class ConsoleFeedData {
  // The defaults of `trails generate` and `trails ingest`.
  private static final int TRAILS_USERS = 10_000;
  private static final int TRAILS_DAYS = 10;
  private static final long TRAILS_RECORDS = 100_000;
  private static final double TRAILS_MALFORMED = 0.01;
  private static final LocalDate TRAILS_FIRST_DAY = LocalDate.parse("2026-09-01");
  private static final long TRAILS_SEED = 1;
  private static final int TRAILS_INGEST_THREADS = 2;

  // The defaults of `bench weibo` (WeiboBenchmark.Options) and its graph's seed.
  private static final int WEIBO_USERS = 10_000;
  private static final int WEIBO_THRESHOLD = 2000;
  private static final int WEIBO_STARS = 3;
  private static final int WEIBO_PUBLISHES = 500;
  private static final long WEIBO_SEED = 2026;

  // The defaults of `archive generate`; `archive import` defaults to a bulk load.
  private static final int ARCHIVE_FILES = 20;
  private static final int ARCHIVE_USERS_PER_FILE = 200;
  private static final int ARCHIVE_STATUSES = 20;
  private static final long ARCHIVE_SEED = 1;

  private ConsoleFeedData() {}

  // ---- trails: `trails generate`, then `trails ingest`

  /** The log {@link #trails} generates in {@code dir} (and leaves there). */
  static Path trailsLog(Path dir) {
    return dir.resolve("trails-logs.jsonl");
  }

  /** {@code scale} times the users and the events of {@code trails generate}'s defaults. */
  static ConsoleData.Loaded trails(SystemContext ctx, Path dir, int scale) {
    long t0 = System.nanoTime();
    Path log = trailsLog(dir);
    int users = TRAILS_USERS * scale;
    try (Progress p = Progress.silent()) {
      LogGenerator.write(
          new LogGenerator.Spec(
              users,
              TRAILS_DAYS,
              TRAILS_RECORDS * scale,
              TRAILS_MALFORMED,
              TRAILS_FIRST_DAY,
              TRAILS_SEED),
          log,
          p);
    }
    TrailsService trails = new TrailsService(ctx);
    IngestReport report;
    try (Progress p = Progress.silent()) {
      report =
          trails.ingest(
              log,
              new IngestOptions(
                  log.resolveSibling(log.getFileName() + ".rejects"),
                  HistoryTables.BOTH,
                  TRAILS_INGEST_THREADS),
              p);
    }
    double seconds = ConsoleData.secondsSince(t0);
    LocalDate lastDay = TRAILS_FIRST_DAY.plusDays(TRAILS_DAYS - 1);
    String uid =
        ConsoleData.firstWithData(
            "trails",
            "events from " + TRAILS_FIRST_DAY + " to " + lastDay,
            loggedUsers(log),
            u ->
                !trails
                    .trails(
                        new TrailQuery(List.of(u), TRAILS_FIRST_DAY, lastDay, Set.of(), Set.of()))
                    .get(u)
                    .events()
                    .isEmpty());
    return new ConsoleData.Loaded(
        "trails",
        ConsoleData.query(
            "uid", uid, "from", TRAILS_FIRST_DAY.toString(), "to", lastDay.toString()),
        report.accepted(),
        seconds,
        String.format(
            Locale.ROOT,
            "%,d events of %,d users over %d days",
            report.accepted(),
            users,
            TRAILS_DAYS));
  }

  /** The users of the log's first valid lines, in order. */
  private static List<String> loggedUsers(Path log) {
    Set<String> users = new LinkedHashSet<>();
    try (BufferedReader r = Files.newBufferedReader(log, StandardCharsets.ISO_8859_1)) {
      String raw;
      while (users.size() < ConsoleData.CANDIDATES && (raw = r.readLine()) != null) {
        // Read as bytes and decoded as the ingest does: the log plants lines of invalid UTF-8.
        String line = new String(raw.getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8);
        if (line.indexOf('\uFFFD') < 0) {
          LogParser.parse(line, Behaviours.BUILT_INS).event().ifPresent(e -> users.add(e.uid()));
        }
      }
    } catch (IOException e) {
      throw LocalFileException.of("read", log, e);
    }
    return List.copyOf(users);
  }

  // ---- weibo: bench weibo's graph and posts, through import-follows and publish

  /** {@code scale} times the users and each group's posts of {@code bench weibo}'s defaults. */
  static ConsoleData.Loaded weibo(SystemContext ctx, int scale) {
    long t0 = System.nanoTime();
    int users = WEIBO_USERS * scale;
    int publishes = WEIBO_PUBLISHES * scale;
    WeiboBenchmark.Graph g =
        WeiboBenchmark.buildGraph(
            users, WEIBO_THRESHOLD, WEIBO_STARS, new SplittableRandom(WEIBO_SEED));
    // The CLI's service, at the benchmark's fan-out threshold: its three stars (3,000 followers)
    // and the crowd's largest accounts are read-merged there, as here. The mode is stored per
    // account and never moves back, so the server (threshold 10,000 by default) serves them so;
    // at 10,000 they would be fanned out on write, some 3 million inbox cells more to load. (Only
    // a follow back-fills, and this loads the graph by import: the back-fill count is unused.)
    WeiboConfig config = WeiboConfig.defaults().withFanOutThreshold(WEIBO_THRESHOLD);
    try (WeiboService weibo = new WeiboService(ctx, config)) {
      weibo.importFollows(g.edges);
      long posts = 0;
      for (List<String> group : List.of(g.tens, g.hundreds, g.thousands, g.stars)) {
        for (int i = 0; i < publishes; i++) {
          String author = group.get(i % group.size());
          weibo.publish(
              author,
              "post " + i + " by " + author + " — benchmark content of a typical length, 短文本");
          posts++;
        }
      }
      for (String u : g.crowd) {
        weibo.publish(u, "crowd post by " + u);
        posts++;
      }
      // The benchmark's timed follows are each undone at once: they leave no data.
      double seconds = ConsoleData.secondsSince(t0);
      String uid =
          ConsoleData.firstWithData(
              "weibo",
              "a timeline",
              g.readers.stream().limit(ConsoleData.CANDIDATES).toList(),
              u -> !weibo.timeline(u, PageRequest.first(20)).items().isEmpty());
      return new ConsoleData.Loaded(
          "weibo",
          ConsoleData.query("uid", uid),
          g.edges.size() + posts,
          seconds,
          String.format(
              Locale.ROOT, "%,d follows among %,d users, %,d posts", g.edges.size(), users, posts));
    }
  }

  // ---- archive: `archive generate`, then `archive import` (a bulk load)

  /** {@code scale} times the files of {@code archive generate}'s defaults. */
  static ConsoleData.Loaded archive(SystemContext ctx, Path dir, int scale) {
    long t0 = System.nanoTime();
    Path input = dir.resolve("archive-input");
    ArchiveGenerator.write(
        new ArchiveGenerator.Spec(
            ARCHIVE_FILES * scale,
            ARCHIVE_USERS_PER_FILE,
            ARCHIVE_STATUSES,
            false,
            0,
            ARCHIVE_SEED),
        input);
    ArchiveService archive = ArchiveService.create(ctx, false);
    org.casebook.archive.ImportReport report;
    try (Progress p = Progress.silent()) {
      report = archive.importFiles(ImportRequest.local(input, ImportMode.BULKLOAD), p);
    }
    double seconds = ConsoleData.secondsSince(t0);
    String uid =
        ConsoleData.firstWithData(
            "archive",
            "a profile and statuses",
            IntStream.range(0, ConsoleData.CANDIDATES)
                .mapToObj(i -> ArchiveGenerator.userId(0, i, ARCHIVE_USERS_PER_FILE))
                .toList(),
            u ->
                archive.user(u).isPresent()
                    && !archive.statuses(u, PageRequest.first(1)).items().isEmpty());
    return new ConsoleData.Loaded(
        "archive",
        ConsoleData.query("uid", uid),
        report.users() + report.statuses(),
        seconds,
        String.format(
            Locale.ROOT,
            "%,d users with %,d statuses in %d files (bulk load)",
            report.users(),
            report.statuses(),
            report.filesLoaded()));
  }
}
