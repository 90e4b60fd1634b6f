package org.casebook.trails;

import java.io.BufferedInputStream;
import java.io.BufferedWriter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;
import org.casebook.core.Futures;
import org.casebook.core.LocalFileException;
import org.casebook.core.StorageException;
import org.casebook.core.Threads;
import org.casebook.core.cli.Progress;

/**
 * The parallel ingest pipeline: one reader streams the file as bytes (decoded per line, so bad
 * UTF-8 rejects only its line), worker threads clean chunks of lines and write them through the
 * store's buffered writers, and rejected lines are counted by category and written, in line order,
 * to the rejects file. One instance per run.
 */
final class TrailsIngest {
  private static final int CHUNK_LINES = 2000;
  static final int MAX_LINE_BYTES = 1 << 20;

  /** A rejected line: its number, the full reason, and the line as read. */
  record Reject(long line, String reason, String text) {}

  private final TrailsStore store;
  private final Path input;
  private final TrailsService.IngestOptions options;
  private final Progress progress;
  private final AtomicLong accepted = new AtomicLong();
  private final AtomicLong cells = new AtomicLong();
  private final ConcurrentLinkedQueue<Reject> rejects = new ConcurrentLinkedQueue<>();
  private final Map<String, AtomicLong> reasons = new ConcurrentHashMap<>();

  TrailsIngest(
      TrailsStore store, Path input, TrailsService.IngestOptions options, Progress progress) {
    this.store = store;
    this.input = input;
    this.options = options;
    this.progress = progress;
  }

  IngestReport run() {
    long t0 = System.nanoTime();
    ExecutorService pool =
        Executors.newFixedThreadPool(options.threads(), Threads.daemon("trails-ingest"));
    long lines;
    try (TrailsStore.Writers writers = store.writers(options.history())) {
      lines = readAndSubmit(pool, writers);
    } finally {
      pool.shutdownNow();
    }
    writeRejects(new ArrayList<>(rejects), options.rejectsFile());
    Map<String, Long> reasonCounts = new TreeMap<>();
    reasons.forEach((k, v) -> reasonCounts.put(k, v.get()));
    return new IngestReport(
        input,
        lines,
        accepted.get(),
        rejects.size(),
        cells.get(),
        (System.nanoTime() - t0) / 1e9,
        options.rejectsFile(),
        reasonCounts);
  }

  /**
   * Reads the file in chunks, hands each to a worker (at most two per thread in flight), waits for
   * all.
   */
  private long readAndSubmit(ExecutorService pool, TrailsStore.Writers writers) {
    Semaphore inFlight = new Semaphore(options.threads() * 2);
    Deque<Future<?>> futures = new ArrayDeque<>();
    long lineNo = 0;
    try (InputStream in = new BufferedInputStream(Files.newInputStream(input), 1 << 16)) {
      List<byte[]> chunk = new ArrayList<>(CHUNK_LINES);
      long chunkStart = 1;
      byte[] line;
      while ((line = readLine(in)) != null) {
        lineNo++;
        if (lineNo == 1 && startsWithByteOrderMark(line, line.length)) {
          // A UTF-8 byte order mark (as Windows tools write) is not part of the first line; the
          // bulk load's reader (LogLineInputFormat) drops it too.
          line = Arrays.copyOfRange(line, 3, line.length);
        }
        chunk.add(line);
        if (chunk.size() == CHUNK_LINES) {
          futures.add(submit(pool, inFlight, writers, chunk, chunkStart));
          chunk = new ArrayList<>(CHUNK_LINES);
          chunkStart = lineNo + 1;
          // Surfaces a worker's failure early instead of after reading the whole file.
          while (!futures.isEmpty() && futures.peekFirst().isDone()) {
            Futures.await(futures.removeFirst());
          }
        }
      }
      if (!chunk.isEmpty()) {
        futures.add(submit(pool, inFlight, writers, chunk, chunkStart));
      }
    } catch (IOException e) {
      throw LocalFileException.of("read", input, e);
    }
    while (!futures.isEmpty()) {
      Futures.await(futures.removeFirst());
    }
    return lineNo;
  }

  private Future<?> submit(
      ExecutorService pool,
      Semaphore inFlight,
      TrailsStore.Writers writers,
      List<byte[]> lines,
      long firstLine) {
    try {
      inFlight.acquire();
    } catch (InterruptedException e) {
      throw StorageException.interrupted("ingest " + input, e);
    }
    return pool.submit(
        () -> {
          try {
            long n = firstLine;
            for (byte[] raw : lines) {
              clean(writers, n++, raw);
              progress.advance(raw.length + 1);
            }
          } finally {
            inFlight.release();
          }
        });
  }

  /** Writes one line's event, or records why it was rejected. */
  private void clean(TrailsStore.Writers writers, long lineNo, byte[] raw) {
    Cleaned c = clean(raw, raw.length);
    if (c.event() != null) {
      cells.addAndGet(writers.write(c.event()));
      accepted.incrementAndGet();
      return;
    }
    rejects.add(new Reject(lineNo, c.reason(), c.shown()));
    reasons.computeIfAbsent(c.category(), k -> new AtomicLong()).incrementAndGet();
  }

  /**
   * A line's outcome: its event, or why it was rejected — the category counted, the full reason,
   * and the line as shown in the rejects file.
   */
  record Cleaned(Event event, String category, String reason, String shown) {}

  /**
   * Cleans the first {@code length} bytes of {@code raw} (one line without its terminator): the
   * rules of both ingest paths (Puts and the bulk load), so both accept and reject the same lines.
   */
  static Cleaned clean(byte[] raw, int length) {
    if (length > MAX_LINE_BYTES) {
      return tooLong(raw, length);
    }
    String text;
    try {
      text =
          StandardCharsets.UTF_8
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .decode(ByteBuffer.wrap(raw, 0, length))
              .toString();
    } catch (CharacterCodingException e) {
      return new Cleaned(
          null,
          "invalid UTF-8",
          "invalid UTF-8",
          new String(raw, 0, Math.min(length, SHOWN_BYTES), StandardCharsets.UTF_8));
    }
    LogParser.Parsed parsed = LogParser.parse(text);
    if (parsed.event().isPresent()) {
      return new Cleaned(parsed.event().get(), null, null, null);
    }
    return new Cleaned(null, parsed.category(), parsed.reason(), text);
  }

  /** The category of lines over {@link #MAX_LINE_BYTES}. */
  static final String TOO_LONG = "line too long";

  /** How much of an undecodable or over-long line the rejects file shows. */
  static final int SHOWN_BYTES = 2000;

  /** The reject of an over-long line whose first {@code length} bytes are in {@code head}. */
  private static Cleaned tooLong(byte[] head, int length) {
    return new Cleaned(
        null,
        TOO_LONG,
        "line longer than " + MAX_LINE_BYTES + " bytes",
        new String(head, 0, Math.min(length, SHOWN_BYTES), StandardCharsets.UTF_8));
  }

  /** Whether the first {@code length} bytes of {@code line} start with a UTF-8 byte order mark. */
  static boolean startsWithByteOrderMark(byte[] line, int length) {
    return length >= 3
        && line[0] == (byte) 0xEF
        && line[1] == (byte) 0xBB
        && line[2] == (byte) 0xBF;
  }

  /**
   * One line without its terminator ({@code \n}, and a {@code \r} before it), or null at the end;
   * of a line longer than {@link #MAX_LINE_BYTES} only the first {@link #KEPT_BYTES} are kept
   * (enough to reject it as too long and show its head).
   */
  private static byte[] readLine(InputStream in) throws IOException {
    ByteArrayOutputStream buf = new ByteArrayOutputStream(256);
    int b;
    boolean any = false;
    while ((b = in.read()) != -1) {
      any = true;
      if (b == '\n') {
        break;
      }
      if (buf.size() < KEPT_BYTES) {
        buf.write(b);
      }
    }
    if (!any) {
      return null;
    }
    byte[] line = buf.toByteArray();
    int length = lengthWithoutCarriageReturn(line, line.length);
    return length == line.length ? line : Arrays.copyOf(line, length);
  }

  /** Bytes of a line kept: one over the limit, and the {@code \r} that may follow it. */
  static final int KEPT_BYTES = MAX_LINE_BYTES + 2;

  /**
   * The length of a line's first {@code length} bytes without a final {@code \r}, unless the line
   * is over the limit anyway (its kept bytes may end anywhere): both ingest paths end lines so.
   */
  static int lengthWithoutCarriageReturn(byte[] line, int length) {
    return length > 0 && length <= MAX_LINE_BYTES + 1 && line[length - 1] == '\r'
        ? length - 1
        : length;
  }

  /** {@code s} on one line of a tab-separated rejects file. */
  static String oneLine(String s) {
    return s.replace('\t', ' ').replace('\n', ' ').replace('\r', ' ');
  }

  /** Writes the rejects file: a header, then one line per reject in line order. */
  static void writeRejects(List<Reject> rejects, Path file) {
    List<Reject> sorted = new ArrayList<>(rejects);
    sorted.sort(Comparator.comparingLong(Reject::line));
    try {
      if (file.getParent() != null) {
        Files.createDirectories(file.getParent());
      }
      try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
        w.write("# line\treason\tline as read\n");
        for (Reject r : sorted) {
          w.write(r.line() + "\t" + oneLine(r.reason()) + "\t" + oneLine(r.text()) + "\n");
        }
      }
    } catch (IOException e) {
      throw LocalFileException.of("write", file, e);
    }
  }
}
