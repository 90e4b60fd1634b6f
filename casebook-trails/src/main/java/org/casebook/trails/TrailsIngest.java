package org.casebook.trails;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import org.casebook.core.Futures;
import org.casebook.core.LocalFileException;
import org.casebook.core.StorageException;
import org.casebook.core.Threads;
import org.casebook.core.cli.Progress;
import org.casebook.trails.wire.LogLines;
import org.casebook.trails.wire.RejectsFile;

/**
 * The parallel ingest pipeline: one reader streams the file as bytes (decoded per line, so bad
 * UTF-8 rejects only its line), worker threads clean chunks of lines and write them through the
 * store's buffered writers ({@link LineTally}, shared with the upload of a request body), and
 * rejected lines are counted by category and written, in line order, to the rejects file. One
 * instance per run.
 */
final class TrailsIngest {
  private static final int CHUNK_LINES = 2000;

  private final IngestStore store;
  private final Path input;
  private final IngestOptions options;
  private final Progress progress;
  private final LineTally tally;

  TrailsIngest(
      IngestStore store,
      Path input,
      IngestOptions options,
      Progress progress,
      BehaviourLookup behaviours) {
    this.store = store;
    this.input = input;
    this.options = options;
    this.progress = progress;
    // Every rejected line is kept: the rejects file lists them all.
    this.tally = new LineTally(Long.MAX_VALUE, behaviours);
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
    RejectsFile.write(tally.rejects(), options.rejectsFile());
    return new IngestReport(
        input,
        lines,
        tally.accepted(),
        tally.rejected(),
        tally.cells(),
        (System.nanoTime() - t0) / 1e9,
        options.rejectsFile(),
        tally.reasons());
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
        chunk.add(lineNo == 1 ? LogLines.withoutByteOrderMark(line) : line);
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
              tally.clean(writers, n++, raw);
              progress.advance(raw.length + 1);
            }
          } finally {
            inFlight.release();
          }
        });
  }
}
