package org.casebook.bench;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
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
import java.util.concurrent.atomic.AtomicReference;
import org.casebook.banknote.BanknoteService;
import org.casebook.banknote.FileContext;
import org.casebook.banknote.gen.BanknoteGenerator;
import org.casebook.core.Json;
import org.casebook.core.LocalFileException;
import org.casebook.core.SystemContext;
import org.casebook.core.page.PageRequest;
import org.casebook.docs.BulkSummary;
import org.casebook.docs.DocsService;
import org.casebook.docs.gen.DocGenerator;
import org.casebook.docs.wire.BulkNdjson;
import org.casebook.frontier.FrontierService;
import org.casebook.frontier.FrontierSystem;
import org.casebook.frontier.PutAck;
import org.casebook.frontier.PutStatus;
import org.casebook.frontier.UrlInfo;
import org.casebook.frontier.UrlItem;
import org.casebook.tsdb.OpenTsdbQuery;
import org.casebook.tsdb.QueryResult;
import org.casebook.tsdb.TsdbService;
import org.casebook.tsdb.gen.TsdbGenerator;

/**
 * {@code bench console}'s data of seed 002's stores (tsdb, docs, frontier, banknote): each
 * generated at its generator's defaults and loaded through the system's Java API, as its CLI does.
 */
final class ConsoleStoreData {
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

  private ConsoleStoreData() {}

  // ---- tsdb: `tsdb generate`, then `tsdb import`

  /** {@code scale} times the hosts of {@code tsdb generate}'s defaults. */
  static ConsoleData.Loaded tsdb(SystemContext ctx, Path dir, int scale) {
    long t0 = System.nanoTime();
    int hosts = TSDB_HOSTS * scale;
    // As the CLI: the given hours of traffic, ending now.
    long end = ctx.clock().millis() / 1000;
    int intervals = (int) Math.min(Integer.MAX_VALUE, TSDB_HOURS * 3600L / TSDB_INTERVAL_SECONDS);
    long start = end - (long) intervals * TSDB_INTERVAL_SECONDS;
    Path file = dir.resolve("tsdb-points.txt.gz");
    TsdbGenerator.write(
        new TsdbGenerator.Spec(
            hosts, TSDB_METRICS, TSDB_INTERVAL_SECONDS, start, intervals, 0, 0, TSDB_SEED),
        file,
        n -> {});
    // On the served system's context: its namespace and salt.
    try (TsdbService tsdb = new TsdbService(ctx)) {
      org.casebook.tsdb.ImportReport report = tsdb.importFile(file, n -> {});
      double seconds = ConsoleData.secondsSince(t0);
      String metric =
          ConsoleData.firstWithData(
              "tsdb",
              "points from " + start + " to " + end,
              TsdbGenerator.metricNames(TSDB_METRICS),
              m -> hasPoints(tsdb, m, start, end));
      String link =
          ConsoleData.query("m", metric, "start", Long.toString(start), "end", Long.toString(end))
              + (end - start > TSDB_RAW_RANGE_SECONDS
                  ? "&" + ConsoleData.query("ds", "1m-avg")
                  : "");
      return new ConsoleData.Loaded(
          "tsdb",
          link,
          report.points(),
          seconds,
          String.format(
              Locale.ROOT,
              "%,d points of %d metrics from %d hosts over %d h (every %d s)",
              report.points(),
              TSDB_METRICS,
              hosts,
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

  /** {@code scale} times the pages of {@code docs generate}'s defaults. */
  static ConsoleData.Loaded docs(SystemContext ctx, Path dir, int scale) {
    long t0 = System.nanoTime();
    int pages = DOCS_PAGES * scale;
    Path file = dir.resolve("docs.ndjson");
    DocGenerator gen =
        new DocGenerator(DOCS_SEED, DOCS_START, DOCS_DAYS, DOCS_PAGE_BYTES, DOCS_MAX_COMMENTS);
    Set<Listing> listings = new LinkedHashSet<>();
    try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      for (int i = 0; i < pages; i++) {
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
    double seconds = ConsoleData.secondsSince(t0);
    Listing listing =
        ConsoleData.firstWithData(
            "docs",
            "documents listed",
            listings.stream().limit(ConsoleData.CANDIDATES).toList(),
            l ->
                !docs.bySource(l.type(), l.source(), l.day().toString(), PageRequest.first(1))
                    .items()
                    .isEmpty());
    return new ConsoleData.Loaded(
        "docs",
        ConsoleData.query(
            "type", listing.type(), "source", listing.source(), "day", listing.day().toString()),
        summary.stored(),
        seconds,
        String.format(
            Locale.ROOT,
            "%,d documents: %,d pages (BBS, blogs, news) and their comments over %d days",
            summary.stored(),
            pages,
            DOCS_DAYS));
  }

  // ---- frontier: bench frontier's URLs, put as `frontier put` does

  /** {@code scale} times the URLs and hosts above. */
  static ConsoleData.Loaded frontier(SystemContext ctx, int scale) {
    long t0 = System.nanoTime();
    int urls = FRONTIER_URLS * scale;
    int hosts = FRONTIER_HOSTS * scale;
    FrontierService frontier =
        new FrontierService(ctx, ctx.settings().get(FrontierSystem.NAMESPACE));
    List<UrlItem> batch = new ArrayList<>(FRONTIER_PUT_BATCH);
    for (int i = 0; i < urls; i++) {
      batch.add(UrlItem.discovered(UrlInfo.of(FrontierBenchmark.url(i, hosts), FRONTIER_CRAWL)));
      if (batch.size() == FRONTIER_PUT_BATCH || i == urls - 1) {
        checkAcks(frontier.put(batch));
        batch.clear();
      }
    }
    double seconds = ConsoleData.secondsSince(t0);
    String crawl =
        ConsoleData.firstWithData(
            "frontier",
            "queued URLs",
            List.of(FRONTIER_CRAWL),
            c -> frontier.channel(c).queued() > 0);
    return new ConsoleData.Loaded(
        "frontier",
        ConsoleData.query("crawl", crawl),
        urls,
        seconds,
        String.format(
            Locale.ROOT, "%,d URLs of %,d hosts in channel %s", urls, hosts, FRONTIER_CRAWL));
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

  /** {@code scale} times the devices of {@code banknote generate}'s defaults. */
  static ConsoleData.Loaded banknote(SystemContext ctx, Path dir, int scale) {
    long t0 = System.nanoTime();
    int devices = BANKNOTE_DEVICES * scale;
    BanknoteGenerator.Spec spec =
        new BanknoteGenerator.Spec(
            devices,
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
              if (!f.notes().isEmpty() && serials.size() < ConsoleData.CANDIDATES) {
                serials.add(f.notes().get(0).serial());
              }
            });
    // On the served system's context: its namespace and zone.
    BanknoteService service = new BanknoteService(ctx);
    Path rejects = dir.resolve("rejects");
    long stored = 0;
    int quarantined = 0;
    for (Path file : files) {
      org.casebook.banknote.ImportReport report =
          service.importFile(file, FileContext.none(), rejects);
      stored += report.stored();
      quarantined += report.quarantined() == null ? 0 : 1;
    }
    double seconds = ConsoleData.secondsSince(t0);
    String serial =
        ConsoleData.firstWithData(
            "banknote",
            "a history",
            serials,
            s -> !service.history(s, PageRequest.first(1), false).items().isEmpty());
    return new ConsoleData.Loaded(
        "banknote",
        ConsoleData.query("serial", serial),
        stored,
        seconds,
        String.format(
            Locale.ROOT,
            "%,d notes read by %d devices in a day, %,d files (%d damaged: quarantined)",
            stored,
            devices,
            files.size(),
            quarantined));
  }
}
