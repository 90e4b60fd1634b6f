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
  private static final int MAX_LINE_BYTES = 1 << 20;

  /** A rejected line: its number, the full reason, and the line as read. */
  private record Reject(long line, String reason, String text) {}

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
    TrailsService.History history = options.history();
    boolean tall = history == TrailsService.History.TALL || history == TrailsService.History.BOTH;
    boolean wide = history == TrailsService.History.WIDE || history == TrailsService.History.BOTH;
    ExecutorService pool =
        Executors.newFixedThreadPool(options.threads(), Threads.daemon("trails-ingest"));
    long lines;
    try (TrailsStore.Writers writers = store.writers(tall, wide)) {
      lines = readAndSubmit(pool, writers);
    } finally {
      pool.shutdownNow();
    }
    writeRejects();
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
    String text = null;
    String category;
    String reason;
    if (raw.length > MAX_LINE_BYTES) {
      category = "line too long";
      reason = "line longer than " + MAX_LINE_BYTES + " bytes";
    } else {
      try {
        text =
            StandardCharsets.UTF_8
                .newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT)
                .decode(ByteBuffer.wrap(raw))
                .toString();
        LogParser.Parsed parsed = LogParser.parse(text);
        if (parsed.event().isPresent()) {
          cells.addAndGet(writers.write(parsed.event().get()));
          accepted.incrementAndGet();
          return;
        }
        category = parsed.category();
        reason = parsed.reason();
      } catch (CharacterCodingException e) {
        category = "invalid UTF-8";
        reason = "invalid UTF-8";
      }
    }
    String shown =
        text != null
            ? text
            : new String(raw, 0, Math.min(raw.length, 2000), StandardCharsets.UTF_8);
    rejects.add(new Reject(lineNo, reason, shown));
    reasons.computeIfAbsent(category, k -> new AtomicLong()).incrementAndGet();
  }

  /** One line without its terminator ({@code \n}, optional {@code \r}), or null at the end. */
  private static byte[] readLine(InputStream in) throws IOException {
    ByteArrayOutputStream buf = new ByteArrayOutputStream(256);
    int b;
    boolean any = false;
    while ((b = in.read()) != -1) {
      any = true;
      if (b == '\n') {
        break;
      }
      if (buf.size() <= MAX_LINE_BYTES) {
        buf.write(b);
      }
    }
    if (!any) {
      return null;
    }
    byte[] line = buf.toByteArray();
    if (line.length > 0 && line[line.length - 1] == '\r') {
      line = Arrays.copyOf(line, line.length - 1);
    }
    return line;
  }

  private void writeRejects() {
    List<Reject> sorted = new ArrayList<>(rejects);
    sorted.sort(Comparator.comparingLong(Reject::line));
    Path file = options.rejectsFile();
    try {
      if (file.getParent() != null) {
        Files.createDirectories(file.getParent());
      }
      try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
        w.write("# line\treason\tline as read\n");
        for (Reject r : sorted) {
          w.write(
              r.line()
                  + "\t"
                  + r.reason().replace('\t', ' ').replace('\n', ' ')
                  + "\t"
                  + r.text().replace('\t', ' ').replace('\n', ' ').replace('\r', ' ')
                  + "\n");
        }
      }
    } catch (IOException e) {
      throw LocalFileException.of("write", file, e);
    }
  }
}
