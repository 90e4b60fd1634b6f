package org.casebook.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.logging.Level;
import org.casebook.browser.HeadlessChromium;
import org.casebook.core.InvalidInputException;
import org.casebook.core.SystemContext;
import org.casebook.server.Session;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.logging.LogType;
import picocli.CommandLine.Option;

/**
 * {@code casebook bench console}: every system's data at its generator's default size, the whole
 * server in this process, and each console page opened in headless Chromium with a link that asks
 * its API at once. A page reports when it has drawn its first answer ({@code
 * Casebook.dataDrawn(element)} sets {@code body[data-page-data-ms]}, milliseconds since navigation,
 * measured by the browser); the overview reports its first refresh ({@code data-first-data-ms}).
 */
final class ConsoleBenchmark {
  /** The command-line options of {@code bench console}. */
  static final class Options {
    @Option(
        names = "--rounds",
        paramLabel = "N",
        defaultValue = "5",
        description = "Page loads per page, each a fresh navigation (default ${DEFAULT-VALUE}).")
    int rounds;

    @Option(
        names = "--target-ms",
        paramLabel = "MS",
        defaultValue = "1000",
        description = "Page load to first data that passes (default ${DEFAULT-VALUE}).")
    long targetMs;

    @Option(
        names = "--chromium",
        paramLabel = "FILE",
        defaultValue = "/usr/bin/chromium",
        description = "The browser (default ${DEFAULT-VALUE}, Debian's chromium).")
    Path chromium;

    @Option(
        names = "--chromedriver",
        paramLabel = "FILE",
        defaultValue = "/usr/bin/chromedriver",
        description = "Its WebDriver (default ${DEFAULT-VALUE}, Debian's chromium-driver).")
    Path chromedriver;
  }

  /**
   * One page's figures: every load's milliseconds to first data, in order, and what the browser's
   * console logged as errors (none expected).
   */
  record PageResult(
      String page,
      String link,
      String data,
      List<Long> millis,
      long firstMillis,
      long medianMillis,
      long maxMillis,
      boolean withinTarget,
      List<String> browserErrors) {}

  private final Options options;
  private final Session session;

  ConsoleBenchmark(Options options, Session session) {
    this.options = options;
    this.session = session;
  }

  Map<String, Object> run() throws Exception {
    InvalidInputException.check(options.rounds >= 1, "rounds", "--rounds must be at least 1");
    InvalidInputException.check(
        Files.isExecutable(options.chromium),
        "chromium",
        options.chromium + " is not an executable browser (Debian: apt-get install chromium)");
    InvalidInputException.check(
        Files.isExecutable(options.chromedriver),
        "chromedriver",
        options.chromedriver
            + " is not an executable WebDriver (Debian: apt-get install chromium-driver)");
    // Every system served as `serve` serves it, its listeners on free ports.
    try (Session.Served server = session.serve(session.systems(), 4)) {
      SystemContext ctx = session.context("bench");
      Path scratch = Files.createDirectories(ctx.dataDir().resolve("tmp").resolve("bench-console"));
      System.out.println("loading every system's data at its generator's default size…");
      List<ConsoleData.Loaded> loaded;
      try {
        loaded =
            ConsoleData.load(name -> session.context(session.system(name)), scratch, System.out);
      } finally {
        // The generated files are loaded (or the load failed): the tables hold what counts.
        org.casebook.core.LocalFiles.deleteRecursively(scratch);
      }
      String base = "http://127.0.0.1:" + server.port() + "/";
      List<PageResult> pages = new ArrayList<>();
      WebDriver browser = browser();
      try {
        pages.add(measure(browser, "overview", base + "#/", "", "data-first-data-ms"));
        for (ConsoleData.Loaded l : loaded) {
          String link = "#/system/" + l.system() + (l.query().isEmpty() ? "" : "?" + l.query());
          pages.add(measure(browser, l.system(), base + link, l.what(), "data-page-data-ms"));
        }
      } finally {
        browser.quit();
      }
      System.out.println();
      System.out.print(table(pages));
      Map<String, Object> json = new LinkedHashMap<>();
      json.put("rounds", options.rounds);
      json.put("targetMs", options.targetMs);
      json.put("loaded", loaded);
      json.put("pages", pages);
      json.put("allWithinTarget", pages.stream().allMatch(PageResult::withinTarget));
      pages.stream()
          .filter(p -> !p.browserErrors().isEmpty())
          .forEach(
              p ->
                  System.out.println(
                      "browser errors on " + p.page() + ": " + p.browserErrors().get(0)));
      return json;
    }
  }

  private WebDriver browser() {
    return HeadlessChromium.start(options.chromium, options.chromedriver, Level.SEVERE);
  }

  /**
   * Opens {@code url} {@code rounds} times, each from a blank page (a fresh navigation, not a
   * change of the link's fragment), and reads the page's own first-data time.
   */
  private PageResult measure(
      WebDriver browser, String page, String url, String data, String attribute)
      throws InterruptedException {
    List<Long> millis = new ArrayList<>();
    List<String> errors = new ArrayList<>();
    for (int round = 0; round < options.rounds; round++) {
      millis.add(HeadlessChromium.openAndAwait(browser, url, attribute, Duration.ofSeconds(30)));
      browser.manage().logs().get(LogType.BROWSER).getAll().stream()
          .filter(e -> e.getLevel().intValue() >= Level.SEVERE.intValue())
          .forEach(e -> errors.add(e.getMessage()));
    }
    List<Long> sorted = new ArrayList<>(millis);
    sorted.sort(null);
    long max = sorted.get(sorted.size() - 1);
    PageResult r =
        new PageResult(
            page,
            url.substring(url.indexOf('#')),
            data,
            millis,
            millis.get(0),
            sorted.get(sorted.size() / 2),
            max,
            max <= options.targetMs,
            errors);
    System.out.printf(
        Locale.ROOT,
        "  %-9s first %5d ms, median %5d ms, max %5d ms%n",
        page,
        r.firstMillis(),
        r.medianMillis(),
        r.maxMillis());
    return r;
  }

  static String table(List<PageResult> pages) {
    StringBuilder out =
        new StringBuilder("Console: page load to first data (ms, headless Chromium)\n");
    out.append(
        String.format(
            Locale.ROOT,
            "%-9s %8s %8s %8s  %-6s %6s  %s%n",
            "page",
            "first",
            "median",
            "max",
            "≤ tgt",
            "errors",
            "data / link"));
    for (PageResult p : pages) {
      out.append(
          String.format(
              Locale.ROOT,
              "%-9s %8d %8d %8d  %-6s %6d  %s%n",
              p.page(),
              p.firstMillis(),
              p.medianMillis(),
              p.maxMillis(),
              p.withinTarget() ? "yes" : "NO",
              p.browserErrors().size(),
              (p.data().isEmpty() ? "" : p.data() + " · ") + p.link()));
    }
    return out.toString();
  }
}
