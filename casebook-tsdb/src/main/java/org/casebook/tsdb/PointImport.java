package org.casebook.tsdb;

import java.io.BufferedReader;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.LongConsumer;
import java.util.function.Supplier;
import java.util.zip.GZIPInputStream;
import org.casebook.core.InvalidInputException;
import org.casebook.core.LocalFileException;

/**
 * Reads a file in OpenTSDB's bulk import format — a {@code put} line without {@code put}: {@code
 * metric timestamp value tagk=tagv …}, gzip if the name ends in {@code .gz} — in batches of checked
 * points. Bad lines are counted and the first few reported.
 */
final class PointImport {
  private static final int BATCH = 5_000;
  private static final int ERRORS_KEPT = 10;

  private PointImport() {}

  /**
   * Hands the file's good points to {@code write} in batches (the last with {@code true}: the
   * import is done when that write returns) and the compressed bytes read to {@code bytesRead}.
   */
  static ImportReport run(
      Path file,
      Supplier<IncomingPoint.Limits> limits,
      BiConsumer<List<IncomingPoint>, Boolean> write,
      LongConsumer bytesRead) {
    long started = System.nanoTime();
    long lines = 0;
    long points = 0;
    long refused = 0;
    List<String> firstErrors = new ArrayList<>();
    List<IncomingPoint> batch = new ArrayList<>(BATCH);
    try (CountingInputStream counted = new CountingInputStream(Files.newInputStream(file));
        InputStream in =
            file.getFileName().toString().endsWith(".gz")
                ? new GZIPInputStream(counted, 1 << 16)
                : counted;
        BufferedReader reader =
            new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8), 1 << 16)) {
      String line;
      long reported = 0;
      while ((line = reader.readLine()) != null) {
        lines++;
        String trimmed = line.strip();
        if (trimmed.isEmpty() || trimmed.startsWith("#")) {
          continue;
        }
        try {
          batch.add(IncomingPoint.fromPutWords(Tags.words("put " + trimmed), limits.get()));
        } catch (InvalidInputException e) {
          refused++;
          if (firstErrors.size() < ERRORS_KEPT) {
            firstErrors.add("line " + lines + ": " + e.getMessage());
          }
        }
        if (batch.size() >= BATCH) {
          write.accept(batch, false);
          points += batch.size();
          batch.clear();
          bytesRead.accept(counted.count() - reported);
          reported = counted.count();
        }
      }
      write.accept(batch, true);
      points += batch.size();
      bytesRead.accept(counted.count() - reported);
    } catch (IOException e) {
      throw LocalFileException.of("read", file, e);
    }
    return new ImportReport(
        file.toString(), lines, points, refused, (System.nanoTime() - started) / 1e9, firstErrors);
  }

  /** Counts the compressed bytes read, for progress. */
  private static final class CountingInputStream extends FilterInputStream {
    private long count;

    CountingInputStream(InputStream in) {
      super(in);
    }

    long count() {
      return count;
    }

    @Override
    public int read() throws IOException {
      int b = super.read();
      if (b >= 0) {
        count++;
      }
      return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      int n = super.read(b, off, len);
      if (n > 0) {
        count += n;
      }
      return n;
    }
  }
}
