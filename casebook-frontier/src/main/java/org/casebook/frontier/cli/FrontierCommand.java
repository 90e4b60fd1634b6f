package org.casebook.frontier.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.casebook.core.InvalidInputException;
import org.casebook.core.Json;
import org.casebook.core.LocalFileException;
import org.casebook.core.SystemContext;
import org.casebook.core.cli.PageOptions;
import org.casebook.core.cli.Progress;
import org.casebook.frontier.FrontierService;
import org.casebook.frontier.FrontierSystem;
import org.casebook.frontier.HandOutRequest;
import org.casebook.frontier.PutAck;
import org.casebook.frontier.PutStatus;
import org.casebook.frontier.UrlInfo;
import org.casebook.frontier.UrlItem;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code casebook frontier …}: channels, hosts, statistics, and putting and getting URLs. */
@Command(
    name = "frontier",
    mixinStandardHelpOptions = true,
    description = "Crawl frontier (seed 002): channels, per-host politeness, URLFrontier gRPC.")
public final class FrontierCommand {
  private static final int PUT_BATCH = 2000;
  private static final int PAGE = 100;
  private final Supplier<SystemContext> context;

  public FrontierCommand(Supplier<SystemContext> context) {
    this.context = context;
  }

  /** The frontier in the namespace its settings name. */
  private FrontierService service() {
    SystemContext ctx = context.get();
    return new FrontierService(ctx, ctx.settings().get(FrontierSystem.NAMESPACE));
  }

  @Command(name = "channels", mixinStandardHelpOptions = true, description = "List channels.")
  int channels(@Mixin PageOptions page) {
    System.out.println(Json.writePretty(service().channels(page.request(PAGE))));
    return 0;
  }

  @Command(
      name = "purge",
      mixinStandardHelpOptions = true,
      description =
          "Remove old URLs now: with --days, those of one crawl (or one queue with --key) first"
              + " stored more than that many days ago, as URLFrontier's PurgeURLs; without it,"
              + " as the retention setting says for every crawl it covers.")
  int purge(
      @Option(names = "--crawl", paramLabel = "CRAWL", description = "The crawl ID (with --days).")
          String crawl,
      @Option(names = "--key", paramLabel = "KEY", description = "One queue of the crawl.")
          String key,
      @Option(names = "--days", paramLabel = "N", description = "Keep URLs younger than N days.")
          Long days) {
    FrontierService s = service();
    if (days == null) {
      InvalidInputException.check(
          crawl == null && key == null, "days", "--crawl and --key need --days");
      System.out.println(Json.writePretty(java.util.Map.of("removed", s.purgeExpired())));
    } else {
      InvalidInputException.check(crawl != null, "crawl", "--days needs --crawl");
      long removed = s.purgeUrls(crawl, key == null ? "" : key, days);
      System.out.println(Json.writePretty(java.util.Map.of("removed", removed)));
    }
    return 0;
  }

  @Command(
      name = "hosts",
      mixinStandardHelpOptions = true,
      description = "List the hosts (queues) of a channel with delay and queue size.")
  int hosts(
      @Parameters(paramLabel = "CRAWL", description = "The channel's crawl ID.") String crawl,
      @Mixin PageOptions page) {
    System.out.println(Json.writePretty(service().hosts(crawl, page.request(PAGE))));
    return 0;
  }

  @Command(
      name = "stats",
      mixinStandardHelpOptions = true,
      description = "Daily statistics of a channel, or of one host with --key.")
  int stats(
      @Parameters(paramLabel = "CRAWL", description = "The channel's crawl ID.") String crawl,
      @Option(names = "--key", paramLabel = "KEY", description = "One host (queue key).")
          String key) {
    System.out.println(Json.writePretty(service().dailyStats(crawl, key)));
    return 0;
  }

  @Command(
      name = "put",
      mixinStandardHelpOptions = true,
      description =
          "Put the URLs of a file as discovered (one URL per line, optionally a tab and its key);"
              + " prints how many were new, duplicates and refused.")
  int put(
      @Parameters(paramLabel = "FILE", description = "UTF-8 text, one URL per line.") Path file,
      @Option(
              names = "--crawl",
              paramLabel = "CRAWL",
              defaultValue = "DEFAULT",
              description = "Crawl ID (default: ${DEFAULT-VALUE}).")
          String crawl) {
    FrontierService s = service();
    Map<PutStatus, Long> totals = new EnumMap<>(PutStatus.class);
    long size = sizeOf(file);
    try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8);
        Progress progress = Progress.start("put", size, "bytes")) {
      List<UrlItem> batch = new ArrayList<>();
      String line;
      while ((line = in.readLine()) != null) {
        progress.advance(line.length() + 1L);
        if (line.isBlank()) {
          continue;
        }
        String[] parts = line.split("\t", 2);
        UrlInfo info = UrlInfo.of(parts[0].trim(), crawl);
        if (parts.length > 1) {
          info = info.withKey(parts[1].trim());
        }
        batch.add(UrlItem.discovered(info));
        if (batch.size() >= PUT_BATCH) {
          count(s.put(batch), totals);
          batch.clear();
        }
      }
      count(s.put(batch), totals);
    } catch (IOException e) {
      throw LocalFileException.of("read", file, e);
    }
    System.out.println(
        Json.writePretty(
            new PutSummary(
                totals.getOrDefault(PutStatus.OK, 0L),
                totals.getOrDefault(PutStatus.SKIPPED, 0L),
                totals.getOrDefault(PutStatus.FAIL, 0L))));
    return totals.getOrDefault(PutStatus.FAIL, 0L) == 0 ? 0 : 5;
  }

  /** What {@code put} did: written (new or updated), skipped (duplicates, refused), failed. */
  record PutSummary(long ok, long skipped, long failed) {}

  private static long sizeOf(Path file) {
    try {
      return Files.size(file);
    } catch (IOException e) {
      throw LocalFileException.of("read", file, e);
    }
  }

  private static void count(List<PutAck> acks, Map<PutStatus, Long> totals) {
    for (PutAck a : acks) {
      totals.merge(a.status(), 1L, Long::sum);
    }
  }

  @Command(
      name = "get",
      mixinStandardHelpOptions = true,
      description = "Hand out URLs due now, as a crawler's GetURLs would; prints one per line.")
  int get(
      @Parameters(paramLabel = "N", description = "Most queues to take URLs from.") int n,
      @Option(
              names = "--crawl",
              paramLabel = "CRAWL",
              defaultValue = "DEFAULT",
              description = "Crawl ID (default: ${DEFAULT-VALUE}).")
          String crawl,
      @Option(
              names = "--per-queue",
              paramLabel = "M",
              defaultValue = "1",
              description = "Most URLs per queue (default: ${DEFAULT-VALUE}).")
          int perQueue,
      @Option(
              names = "--delay-requestable",
              paramLabel = "SECONDS",
              defaultValue = "30",
              description =
                  "Seconds before an unacknowledged URL is handed out again (default: ${DEFAULT-VALUE}).")
          int delay) {
    List<UrlInfo> urls =
        service().getUrls(HandOutRequest.of(crawl, n, perQueue).withDelayRequestable(delay));
    for (UrlInfo u : urls) {
      System.out.println(u.url() + "\t" + u.key());
    }
    return 0;
  }
}
