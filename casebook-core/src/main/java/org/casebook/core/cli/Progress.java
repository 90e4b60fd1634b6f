package org.casebook.core.cli;

import java.io.Console;
import java.io.PrintStream;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Progress of long work: a redrawn bar on a terminal, a log line every few seconds otherwise (CI,
 * pipes, services). Thread-safe; {@link #advance} is cheap enough to call per record.
 */
public final class Progress implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Progress.class);
  private static final long TERMINAL_EVERY_NANOS = 200_000_000L;
  private static final long LOG_EVERY_NANOS = 5_000_000_000L;

  private final String label;
  private final String unit;
  private final long total;
  private final boolean terminal;
  private final boolean silent;
  private final PrintStream out;
  private final AtomicLong done = new AtomicLong();
  private final ReentrantLock renderLock = new ReentrantLock();
  private final long startNanos = System.nanoTime();
  private volatile long lastRender = startNanos;
  private volatile String detail = "";
  private volatile boolean closed;
  private final Consumer<String> onDetail;

  private Progress(
      String label,
      long total,
      String unit,
      boolean terminal,
      boolean silent,
      PrintStream out,
      Consumer<String> onDetail) {
    this.onDetail = onDetail;
    this.silent = silent;
    this.label = label;
    this.total = total;
    this.unit = unit;
    this.terminal = terminal;
    this.out = out;
  }

  /** {@code total <= 0} means unknown. Draws on stderr when it is a terminal. */
  public static Progress start(String label, long total, String unit) {
    boolean terminal = isTerminal() && System.getenv("CI") == null;
    return new Progress(label, total, unit, terminal, false, System.err, d -> {});
  }

  /**
   * Whether the JVM is attached to a terminal. Before JDK 22 that is {@code System.console() !=
   * null}; from JDK 22 the console exists even when the streams are redirected, and {@code
   * Console.isTerminal()} (not in the JDK 17 API, hence reflection) tells.
   */
  @SuppressWarnings("SystemConsoleNull") // null is "no terminal" before JDK 22; isTerminal() after
  private static boolean isTerminal() {
    Console console = System.console();
    if (console == null) {
      return false;
    }
    try {
      return (Boolean) Console.class.getMethod("isTerminal").invoke(console);
    } catch (ReflectiveOperationException | RuntimeException beforeJdk22) {
      return true; // no isTerminal(): a console means a terminal, as before
    }
  }

  /** A progress that only logs (for servers and tests). */
  public static Progress logging(String label, long total, String unit) {
    return new Progress(label, total, unit, false, false, System.err, d -> {});
  }

  /** A progress that shows nothing: for work inside a larger job that reports its own progress. */
  public static Progress silent() {
    return silent(d -> {});
  }

  /**
   * A progress that shows nothing and hands each detail to {@code onDetail} as it is set, on the
   * working thread: a watcher (a test, a chaos run) may hold the work at a step it names.
   */
  public static Progress silent(Consumer<String> onDetail) {
    return new Progress("", 0, "", false, true, System.err, onDetail);
  }

  public void advance(long n) {
    done.addAndGet(n);
    maybeRender();
  }

  /** Free text shown after the counts, e.g. the current file. */
  public void detail(String text) {
    detail = text == null ? "" : text;
    onDetail.accept(detail);
  }

  private void maybeRender() {
    long now = System.nanoTime();
    if (now - lastRender < (terminal ? TERMINAL_EVERY_NANOS : LOG_EVERY_NANOS)
        || !renderLock.tryLock()) {
      return;
    }
    try {
      lastRender = now;
      render(false);
    } finally {
      renderLock.unlock();
    }
  }

  private void render(boolean last) {
    if (silent) {
      return;
    }
    long d = done.get();
    double secs = Math.max(1e-9, (System.nanoTime() - startNanos) / 1e9);
    String rate = String.format(Locale.ROOT, "%,.0f %s/s", d / secs, unit);
    String counts =
        total > 0
            ? String.format(Locale.ROOT, "%,d/%,d %s", d, total, unit)
            : String.format(Locale.ROOT, "%,d %s", d, unit);
    String suffix = detail.isEmpty() ? "" : "  " + detail;
    if (terminal) {
      String bar = "";
      if (total > 0) {
        int width = 30;
        int filled = (int) Math.min(width, d * width / total);
        bar =
            "["
                + "#".repeat(filled)
                + " ".repeat(width - filled)
                + "] "
                + String.format(Locale.ROOT, "%3d%% ", Math.min(100, d * 100 / total));
      }
      out.print("\r\033[2K" + label + " " + bar + counts + "  " + rate + suffix);
      if (last) {
        out.println();
      }
      out.flush();
    } else {
      LOG.info(
          "{}: {} ({}, {} s){}",
          label,
          counts,
          rate,
          String.format(Locale.ROOT, "%.1f", secs),
          suffix);
    }
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    renderLock.lock();
    try {
      render(true);
    } finally {
      renderLock.unlock();
    }
  }
}
