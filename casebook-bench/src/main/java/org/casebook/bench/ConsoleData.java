package org.casebook.bench;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import java.util.stream.IntStream;
import org.casebook.archive.ArchiveService;
import org.casebook.archive.ImportMode;
import org.casebook.archive.ImportRequest;
import org.casebook.archive.gen.ArchiveGenerator;
import org.casebook.banknote.BanknoteService;
import org.casebook.banknote.FileContext;
import org.casebook.banknote.gen.BanknoteGenerator;
import org.casebook.core.Json;
import org.casebook.core.LocalFileException;
import org.casebook.core.SystemContext;
import org.casebook.core.cli.Progress;
import org.casebook.core.page.PageRequest;
import org.casebook.docs.BulkSummary;
import org.casebook.docs.DocsService;
import org.casebook.docs.gen.DocGenerator;
import org.casebook.docs.wire.BulkNdjson;
import org.casebook.frontier.FrontierService;
import org.casebook.frontier.PutAck;
import org.casebook.frontier.PutStatus;
import org.casebook.frontier.UrlInfo;
import org.casebook.frontier.UrlItem;
import org.casebook.trails.HistoryTables;
import org.casebook.trails.IngestOptions;
import org.casebook.trails.IngestReport;
import org.casebook.trails.TrailQuery;
import org.casebook.trails.TrailsService;
import org.casebook.trails.gen.LogGenerator;
import org.casebook.trails.wire.LogParser;
import org.casebook.tsdb.OpenTsdbQuery;
import org.casebook.tsdb.QueryResult;
import org.casebook.tsdb.TsdbConfig;
import org.casebook.tsdb.TsdbService;
import org.casebook.tsdb.gen.TsdbGenerator;
import org.casebook.weibo.WeiboConfig;
import org.casebook.weibo.WeiboService;

/**
 * The data of {@code bench console}: each system's generator at the defaults of its {@code
 * generate} command (weibo and frontier, which have none: their benchmark's generator and sizes),
 * loaded through the system's own Java API as its CLI loads it, into the default namespaces that
 * the server in this process reads. For each system it picks, from the generated data, a console
 * link query that shows data at once, and checks that it does.
 */
final class ConsoleData {
  /** What one system got, and the link query its console page accepts to show that data at once. */
  record Loaded(String system, String query, long records, double seconds, String what) {}

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

  // The defaults of `tsdb generate`.
  private static final int TSDB_HOSTS = 10;
  private static final int TSDB_METRICS = 8;
  private static final int TSDB_INTERVAL_SECONDS = 10;
  private static final int TSDB_HOURS = 24;
  private static final long TSDB_SEED = 1;

  /** The console's tsdb page downsamples ranges longer than this (seconds). */
  private static final long TSDB_RAW_RANGE_SECONDS = 2 * 3600;

  // The defaults of `docs generate`, and the first day it spreads pages from.
  private static final int DOCS_PAGES = 1000;
  private static final int DOCS_PAGE_BYTES = 2000;
  private static final int DOCS_MAX_COMMENTS = 500;
  private static final int DOCS_DAYS = 7;
  private static final long DOCS_SEED = 2;
  private static final Instant DOCS_START = Instant.parse("2026-09-01T00:00:00Z");

  // `bench frontier` puts 1,000,000 URLs, about 200 s at its measured ~4,900 URLs/s on 2 cores:
  // a tenth of that would still take ~20-30 s through one caller, so 50,000 (~10 s) over the
  // benchmark's default 10,000 hosts. The crawl is `frontier put`'s default.
  private static final int FRONTIER_URLS = 50_000;
  private static final int FRONTIER_HOSTS = 10_000;
  private static final String FRONTIER_CRAWL = "DEFAULT";
  private static final int FRONTIER_PUT_BATCH = 2000;

  // The defaults of `banknote generate` (its --zone is the bank zone FileContext assumes).
  private static final int BANKNOTE_DEVICES = 20;
  private static final int BANKNOTE_DAYS = 1;
  private static final int BANKNOTE_NOTES_PER_DAY = 2000;
  private static final double BANKNOTE_DAMAGED_FILES = 0.01;
  private static final double BANKNOTE_DAMAGED_RECORDS = 0.001;
  private static final long BANKNOTE_SEED = 1;
  private static final ZoneId BANKNOTE_ZONE = FileContext.DEFAULT_ZONE;

  /** Ids tried, in the generator's order, before a link is given up as showing nothing. */
  private static final int CANDIDATES = 50;

  private ConsoleData() {}

  /**
   * Generates each system's data at its generator's default size and loads it through the system's
   * own Java API, as its CLI does.
   */
  static List<Loaded> load(SystemContext ctx, Path scratch, PrintStream log) {
    List<Loaded> loaded = new ArrayList<>();
    loaded.add(logged(log, trails(ctx, directory(scratch.resolve("trails")))));
    loaded.add(logged(log, weibo(ctx)));
    loaded.add(logged(log, archive(ctx, directory(scratch.resolve("archive")))));
    loaded.add(logged(log, tsdb(ctx, directory(scratch.resolve("tsdb")))));
    loaded.add(logged(log, docs(ctx, directory(scratch.resolve("docs")))));
    loaded.add(logged(log, frontier(ctx)));
    loaded.add(logged(log, banknote(ctx, directory(scratch.resolve("banknote")))));
    return loaded;
  }

  private static Loaded logged(PrintStream log, Loaded l) {
    log.printf(
        Locale.ROOT,
        "  %-9s %s in %.1f s; link ?%s%n",
        l.system(),
        l.what(),
        l.seconds(),
        l.query());
    return l;
  }

  // ---- trails: `trails generate`, then `trails ingest`

  private static Loaded trails(SystemContext ctx, Path dir) {
    long t0 = System.nanoTime();
    Path log = dir.resolve("trails-logs.jsonl");
    try (Progress p = Progress.silent()) {
      LogGenerator.write(
          new LogGenerator.Spec(
              TRAILS_USERS,
              TRAILS_DAYS,
              TRAILS_RECORDS,
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
    double seconds = secondsSince(t0);
    LocalDate lastDay = TRAILS_FIRST_DAY.plusDays(TRAILS_DAYS - 1);
    String uid =
        firstWithData(
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
    return new Loaded(
        "trails",
        query("uid", uid, "from", TRAILS_FIRST_DAY.toString(), "to", lastDay.toString()),
        report.accepted(),
        seconds,
        String.format(
            Locale.ROOT,
            "%,d events of %,d users over %d days",
            report.accepted(),
            TRAILS_USERS,
            TRAILS_DAYS));
  }

  /** The users of the log's first valid lines, in order. */
  private static List<String> loggedUsers(Path log) {
    Set<String> users = new LinkedHashSet<>();
    try (BufferedReader r = Files.newBufferedReader(log, StandardCharsets.ISO_8859_1)) {
      String raw;
      while (users.size() < CANDIDATES && (raw = r.readLine()) != null) {
        // Read as bytes and decoded as the ingest does: the log plants lines of invalid UTF-8.
        String line = new String(raw.getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8);
        if (line.indexOf('\uFFFD') < 0) {
          LogParser.parse(line).event().ifPresent(e -> users.add(e.uid()));
        }
      }
    } catch (IOException e) {
      throw LocalFileException.of("read", log, e);
    }
    return List.copyOf(users);
  }

  // ---- weibo: bench weibo's graph and posts, through import-follows and publish

  private static Loaded weibo(SystemContext ctx) {
    long t0 = System.nanoTime();
    WeiboBenchmark.Graph g =
        WeiboBenchmark.buildGraph(
            WEIBO_USERS, WEIBO_THRESHOLD, WEIBO_STARS, new SplittableRandom(WEIBO_SEED));
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
        for (int i = 0; i < WEIBO_PUBLISHES; i++) {
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
      double seconds = secondsSince(t0);
      String uid =
          firstWithData(
              "weibo",
              "a timeline",
              g.readers.stream().limit(CANDIDATES).toList(),
              u -> !weibo.timeline(u, PageRequest.first(20)).items().isEmpty());
      return new Loaded(
          "weibo",
          query("uid", uid),
          g.edges.size() + posts,
          seconds,
          String.format(
              Locale.ROOT,
              "%,d follows among %,d users, %,d posts",
              g.edges.size(),
              WEIBO_USERS,
              posts));
    }
  }

  // ---- archive: `archive generate`, then `archive import` (a bulk load)

  private static Loaded archive(SystemContext ctx, Path dir) {
    long t0 = System.nanoTime();
    Path input = dir.resolve("archive-input");
    ArchiveGenerator.write(
        new ArchiveGenerator.Spec(
            ARCHIVE_FILES, ARCHIVE_USERS_PER_FILE, ARCHIVE_STATUSES, false, 0, ARCHIVE_SEED),
        input);
    ArchiveService archive = ArchiveService.create(ctx, false);
    org.casebook.archive.ImportReport report;
    try (Progress p = Progress.silent()) {
      report = archive.importFiles(ImportRequest.local(input, ImportMode.BULKLOAD), p);
    }
    double seconds = secondsSince(t0);
    String uid =
        firstWithData(
            "archive",
            "a profile and statuses",
            IntStream.range(0, CANDIDATES)
                .mapToObj(i -> ArchiveGenerator.userId(0, i, ARCHIVE_USERS_PER_FILE))
                .toList(),
            u ->
                archive.user(u).isPresent()
                    && !archive.statuses(u, PageRequest.first(1)).items().isEmpty());
    return new Loaded(
        "archive",
        query("uid", uid),
        report.users() + report.statuses(),
        seconds,
        String.format(
            Locale.ROOT,
            "%,d users with %,d statuses in %d files (bulk load)",
            report.users(),
            report.statuses(),
            report.filesLoaded()));
  }

  // ---- tsdb: `tsdb generate`, then `tsdb import`

  private static Loaded tsdb(SystemContext ctx, Path dir) {
    long t0 = System.nanoTime();
    // As the CLI: the given hours of traffic, ending now.
    long end = ctx.clock().millis() / 1000;
    int intervals = (int) Math.min(Integer.MAX_VALUE, TSDB_HOURS * 3600L / TSDB_INTERVAL_SECONDS);
    long start = end - (long) intervals * TSDB_INTERVAL_SECONDS;
    Path file = dir.resolve("tsdb-points.txt.gz");
    TsdbGenerator.write(
        new TsdbGenerator.Spec(
            TSDB_HOSTS, TSDB_METRICS, TSDB_INTERVAL_SECONDS, start, intervals, 0, 0, TSDB_SEED),
        file,
        n -> {});
    // The tables in namespace tsdb, unsalted: the defaults the served system starts with.
    try (TsdbService tsdb = new TsdbService(ctx, TsdbConfig.defaults())) {
      org.casebook.tsdb.ImportReport report = tsdb.importFile(file, n -> {});
      double seconds = secondsSince(t0);
      String metric =
          firstWithData(
              "tsdb",
              "points from " + start + " to " + end,
              TsdbGenerator.metricNames(TSDB_METRICS),
              m -> hasPoints(tsdb, m, start, end));
      String link =
          query("m", metric, "start", Long.toString(start), "end", Long.toString(end))
              + (end - start > TSDB_RAW_RANGE_SECONDS ? "&" + query("ds", "1m-avg") : "");
      return new Loaded(
          "tsdb",
          link,
          report.points(),
          seconds,
          String.format(
              Locale.ROOT,
              "%,d points of %d metrics from %d hosts over %d h (every %d s)",
              report.points(),
              TSDB_METRICS,
              TSDB_HOSTS,
              TSDB_HOURS,
              TSDB_INTERVAL_SECONDS));
    }
  }

  /** Whether an OpenTSDB query of {@code metric} over the range answers with points. */
  private static boolean hasPoints(TsdbService tsdb, String metric, long start, long end) {
    Map<String, List<String>> params = new LinkedHashMap<>();
    params.put("start", List.of(Long.toString(start)));
    params.put("end", List.of(Long.toString(end)));
    params.put("m", List.of("sum:1m-avg:" + metric));
    for (List<QueryResult> groups : tsdb.query(OpenTsdbQuery.fromParams(params, tsdb.nowMs()))) {
      for (QueryResult series : groups) {
        if (!series.points().isEmpty()) {
          return true;
        }
      }
    }
    return false;
  }

  // ---- docs: `docs generate`, then `docs bulk`

  /** A listing the docs page shows: documents of a type from a source site created on a day. */
  private record Listing(String type, String source, LocalDate day) {}

  private static Loaded docs(SystemContext ctx, Path dir) {
    long t0 = System.nanoTime();
    Path file = dir.resolve("docs.ndjson");
    DocGenerator gen =
        new DocGenerator(DOCS_SEED, DOCS_START, DOCS_DAYS, DOCS_PAGE_BYTES, DOCS_MAX_COMMENTS);
    Set<Listing> listings = new LinkedHashSet<>();
    try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      for (int i = 0; i < DOCS_PAGES; i++) {
        for (DocGenerator.Generated g : gen.next()) {
          out.write(g.bulkLines());
          if (g.parentType() == null) {
            listings.add(
                new Listing(
                    g.type(),
                    URI.create((String) g.fields().get("url")).getHost(),
                    Instant.parse((String) g.fields().get("created"))
                        .atZone(ZoneOffset.UTC)
                        .toLocalDate()));
          }
        }
      }
    } catch (IOException e) {
      throw LocalFileException.of("write", file, e);
    }
    DocsService docs = new DocsService(ctx);
    AtomicReference<String> firstError = new AtomicReference<>();
    BulkSummary summary;
    try (InputStream in = Files.newInputStream(file)) {
      summary =
          docs.bulk(
              BulkNdjson.actions(in),
              item -> {
                if (!item.ok()) {
                  firstError.compareAndSet(null, Json.write(item));
                }
              });
    } catch (UncheckedIOException e) {
      throw LocalFileException.of("read", file, e.getCause());
    } catch (IOException e) {
      throw LocalFileException.of("read", file, e);
    }
    if (summary.failed() > 0) {
      // Generated documents are valid: a failure is a fault to see, not data to go without.
      throw new IllegalStateException(
          "docs: "
              + summary.failed()
              + " of "
              + summary.actions()
              + " bulk actions failed, first: "
              + firstError.get());
    }
    double seconds = secondsSince(t0);
    Listing listing =
        firstWithData(
            "docs",
            "documents listed",
            listings.stream().limit(CANDIDATES).toList(),
            l ->
                !docs.bySource(l.type(), l.source(), l.day().toString(), PageRequest.first(1))
                    .items()
                    .isEmpty());
    return new Loaded(
        "docs",
        query("type", listing.type(), "source", listing.source(), "day", listing.day().toString()),
        summary.stored(),
        seconds,
        String.format(
            Locale.ROOT,
            "%,d documents: %,d pages (BBS, blogs, news) and their comments over %d days",
            summary.stored(),
            DOCS_PAGES,
            DOCS_DAYS));
  }

  // ---- frontier: bench frontier's URLs, put as `frontier put` does

  private static Loaded frontier(SystemContext ctx) {
    long t0 = System.nanoTime();
    FrontierService frontier = new FrontierService(ctx);
    List<UrlItem> batch = new ArrayList<>(FRONTIER_PUT_BATCH);
    for (int i = 0; i < FRONTIER_URLS; i++) {
      batch.add(
          UrlItem.discovered(UrlInfo.of(FrontierBenchmark.url(i, FRONTIER_HOSTS), FRONTIER_CRAWL)));
      if (batch.size() == FRONTIER_PUT_BATCH || i == FRONTIER_URLS - 1) {
        checkAcks(frontier.put(batch));
        batch.clear();
      }
    }
    double seconds = secondsSince(t0);
    String crawl =
        firstWithData(
            "frontier",
            "queued URLs",
            List.of(FRONTIER_CRAWL),
            c -> frontier.channel(c).queued() > 0);
    return new Loaded(
        "frontier",
        query("crawl", crawl),
        FRONTIER_URLS,
        seconds,
        String.format(
            Locale.ROOT,
            "%,d URLs of %,d hosts in channel %s",
            FRONTIER_URLS,
            FRONTIER_HOSTS,
            FRONTIER_CRAWL));
  }

  /** Stored (OK) or already known (SKIPPED, on a second run) are fine; anything else is not. */
  private static void checkAcks(List<PutAck> acks) {
    long failed =
        acks.stream()
            .filter(a -> a.status() != PutStatus.OK && a.status() != PutStatus.SKIPPED)
            .count();
    if (failed > 0) {
      throw new IllegalStateException(
          "frontier: " + failed + " of " + acks.size() + " URLs put were not stored");
    }
  }

  // ---- banknote: `banknote generate`, then every spool file through `banknote import`

  private static Loaded banknote(SystemContext ctx, Path dir) {
    long t0 = System.nanoTime();
    BanknoteGenerator.Spec spec =
        new BanknoteGenerator.Spec(
            BANKNOTE_DEVICES,
            BANKNOTE_DAYS,
            BANKNOTE_NOTES_PER_DAY,
            BANKNOTE_DAMAGED_FILES,
            BANKNOTE_DAMAGED_RECORDS,
            true,
            BANKNOTE_SEED,
            LocalDate.now(ctx.clock().withZone(BANKNOTE_ZONE)).minusDays(BANKNOTE_DAYS),
            BANKNOTE_ZONE);
    // Paths and a serial per file only: the generated notes carry images.
    List<Path> files = new ArrayList<>();
    List<String> serials = new ArrayList<>();
    new BanknoteGenerator(spec)
        .write(
            dir.resolve("banknote-spool"),
            f -> {
              files.add(f.path());
              if (!f.notes().isEmpty() && serials.size() < CANDIDATES) {
                serials.add(f.notes().get(0).serial());
              }
            });
    // What the served system reads at its default settings: namespace banknote, the bank zone.
    BanknoteService service =
        new BanknoteService(ctx, BanknoteService.DEFAULT_NAMESPACE, BANKNOTE_ZONE);
    Path rejects = dir.resolve("rejects");
    long stored = 0;
    int quarantined = 0;
    for (Path file : files) {
      org.casebook.banknote.ImportReport report =
          service.importFile(file, FileContext.none(), rejects);
      stored += report.stored();
      quarantined += report.quarantined() == null ? 0 : 1;
    }
    double seconds = secondsSince(t0);
    String serial =
        firstWithData(
            "banknote",
            "a history",
            serials,
            s -> !service.history(s, PageRequest.first(1), false).items().isEmpty());
    return new Loaded(
        "banknote",
        query("serial", serial),
        stored,
        seconds,
        String.format(
            Locale.ROOT,
            "%,d notes read by %d devices in a day, %,d files (%d damaged: quarantined)",
            stored,
            BANKNOTE_DEVICES,
            files.size(),
            quarantined));
  }

  // ---- helpers

  /**
   * The first candidate (in the generator's order) whose console link shows data once loaded; a
   * link that would show an empty page is a failure of the load, not a page to time.
   */
  private static <T> T firstWithData(
      String system, String what, List<T> candidates, Predicate<T> hasData) {
    for (T c : candidates) {
      if (hasData.test(c)) {
        return c;
      }
    }
    throw new IllegalStateException(
        system
            + ": none of the first "
            + candidates.size()
            + " candidates of the generated data has "
            + what
            + " after loading");
  }

  /** A link query of {@code name, value} pairs, values URL-encoded. */
  private static String query(String... pairs) {
    StringBuilder q = new StringBuilder();
    for (int i = 0; i < pairs.length; i += 2) {
      if (q.length() > 0) {
        q.append('&');
      }
      q.append(pairs[i])
          .append('=')
          .append(URLEncoder.encode(pairs[i + 1], StandardCharsets.UTF_8));
    }
    return q.toString();
  }

  private static Path directory(Path dir) {
    try {
      return Files.createDirectories(dir);
    } catch (IOException e) {
      throw LocalFileException.of("create", dir, e);
    }
  }

  private static double secondsSince(long t0) {
    return (System.nanoTime() - t0) / 1e9;
  }
}
