package org.casebook.trails;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
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
import org.casebook.trails.wire.LogLines;
import org.casebook.trails.wire.RejectsFile;

/**
 * The parallel ingest pipeline: one reader streams the file as bytes (decoded per line, so bad
 * UTF-8 rejects only its line), worker threads clean chunks of lines ({@link LogLines#clean}) and
 * write them through the store's buffered writers, and rejected lines are counted by category and
 * written, in line order, to the rejects file. One instance per run.
 */
final class TrailsIngest {
  private static final int CHUNK_LINES = 2000;

  private final IngestStore store;
  private final Path input;
  private final IngestOptions options;
  private final Progress progress;
  private final AtomicLong accepted = new AtomicLong();
  private final AtomicLong cells = new AtomicLong();
  private final ConcurrentLinkedQueue<RejectsFile.Reject> rejects = new ConcurrentLinkedQueue<>();
  private final Map<String, AtomicLong> reasons = new ConcurrentHashMap<>();

  TrailsIngest(IngestStore store, Path input, IngestOptions options, Progress progress) {
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
    try (IngestStore.Writers writers = store.writers(options.history())) {
      lines = readAndSubmit(pool, writers);
    } finally {
      pool.shutdownNow();
    }
    RejectsFile.write(new ArrayList<>(rejects), options.rejectsFile());
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
  private long readAndSubmit(ExecutorService pool, IngestStore.Writers writers) {
    Semaphore inFlight = new Semaphore(options.threads() * 2);
    Deque<Future<?>> futures = new ArrayDeque<>();
    long lineNo = 0;
    try (InputStream in = new BufferedInputStream(Files.newInputStream(input), 1 << 16)) {
      List<byte[]> chunk = new ArrayList<>(CHUNK_LINES);
      long chunkStart = 1;
      byte[] line;
      while ((line = LogLines.readLine(in)) != null) {
        lineNo++;
        if (lineNo == 1 && LogLines.startsWithByteOrderMark(line, line.length)) {
          // A UTF-8 byte order mark (as Windows tools write) is not part of the first line; the
          // bulk load's reader (batch.LogLineInputFormat) drops it too.
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
      IngestStore.Writers writers,
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
  private void clean(IngestStore.Writers writers, long lineNo, byte[] raw) {
    LogLines.Cleaned c = LogLines.clean(raw, raw.length);
    if (c.event() != null) {
      cells.addAndGet(writers.write(c.event()));
      accepted.incrementAndGet();
      return;
    }
    rejects.add(new RejectsFile.Reject(lineNo, c.reason(), c.shown()));
    reasons.computeIfAbsent(c.category(), k -> new AtomicLong()).incrementAndGet();
  }
}
