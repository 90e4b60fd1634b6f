package org.casebook.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.function.Predicate;
import org.casebook.core.LocalFileException;
import org.casebook.core.SystemContext;

/**
 * The data of {@code bench console}: each system's generator at the defaults of its {@code
 * generate} command (weibo and frontier, which have none: their benchmark's generator and sizes),
 * loaded through the system's own Java API as its CLI loads it, on the context (and so with the
 * settings) the system is served on in this process. For each system it picks, from the generated
 * data, a console link query that shows data at once, and checks that it does. The loaders are in
 * {@link ConsoleFeedData} and {@link ConsoleStoreData}.
 */
final class ConsoleData {
  /** What one system got, and the link query its console page accepts to show that data at once. */
  record Loaded(String system, String query, long records, double seconds, String what) {}

  /** Ids tried, in the generator's order, before a link is given up as showing nothing. */
  static final int CANDIDATES = 50;

  private ConsoleData() {}

  /** The systems {@link #load} loads, in its order. */
  static final List<String> SYSTEMS =
      List.of("trails", "weibo", "archive", "tsdb", "docs", "frontier", "banknote");

  /**
   * Generates each system's data at its generator's default size and loads it through the system's
   * own Java API, as its CLI does, each on {@code contexts.apply(<system name>)}.
   */
  static List<Loaded> load(
      Function<String, SystemContext> contexts, Path scratch, PrintStream log) {
    return load(contexts, scratch, log, 1, SYSTEMS);
  }

  /**
   * As {@link #load(Function, Path, PrintStream)}, for {@code systems} only (in {@link #SYSTEMS}'
   * order) and with each generator's size {@code scale} times its default: the counts that make the
   * data grow (trails' users and events, weibo's users and posts, archive's files, tsdb's hosts,
   * docs' pages, frontier's URLs and hosts, banknote's devices), its shape (days, hours, sizes of
   * one record) as at the default (for {@code bench storage --scale}).
   */
  static List<Loaded> load(
      Function<String, SystemContext> contexts,
      Path scratch,
      PrintStream log,
      int scale,
      List<String> systems) {
    if (scale < 1) {
      throw new IllegalArgumentException("scale must be at least 1: " + scale);
    }
    for (String s : systems) {
      if (!SYSTEMS.contains(s)) {
        throw new IllegalArgumentException("no generator data for system " + s);
      }
    }
    List<Loaded> loaded = new ArrayList<>();
    for (String system : SYSTEMS) {
      if (systems.contains(system)) {
        loaded.add(logged(log, load(system, contexts.apply(system), scratch, scale)));
      }
    }
    return loaded;
  }

  private static Loaded load(String system, SystemContext ctx, Path scratch, int scale) {
    return switch (system) {
      case "trails" -> ConsoleFeedData.trails(ctx, directory(scratch.resolve("trails")), scale);
      case "weibo" -> ConsoleFeedData.weibo(ctx, scale);
      case "archive" -> ConsoleFeedData.archive(ctx, directory(scratch.resolve("archive")), scale);
      case "tsdb" -> ConsoleStoreData.tsdb(ctx, directory(scratch.resolve("tsdb")), scale);
      case "docs" -> ConsoleStoreData.docs(ctx, directory(scratch.resolve("docs")), scale);
      case "frontier" -> ConsoleStoreData.frontier(ctx, scale);
      case "banknote" ->
          ConsoleStoreData.banknote(ctx, directory(scratch.resolve("banknote")), scale);
      default -> throw new IllegalArgumentException("no generator data for system " + system);
    };
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

  // ---- helpers

  /**
   * The first candidate (in the generator's order) whose console link shows data once loaded; a
   * link that would show an empty page is a failure of the load, not a page to time.
   */
  static <T> T firstWithData(String system, String what, List<T> candidates, Predicate<T> hasData) {
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
  static String query(String... pairs) {
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

  static Path directory(Path dir) {
    try {
      return Files.createDirectories(dir);
    } catch (IOException e) {
      throw LocalFileException.of("create", dir, e);
    }
  }

  static double secondsSince(long t0) {
    return (System.nanoTime() - t0) / 1e9;
  }
}
