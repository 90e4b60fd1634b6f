package org.casebook.banknote.agent;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;
import org.casebook.banknote.BanknoteService;
import org.casebook.banknote.FileContext;
import org.casebook.banknote.FileRejectedException;
import org.casebook.banknote.Note;
import org.casebook.banknote.NoteFiles;
import org.casebook.banknote.ParsedFile;
import org.casebook.banknote.Quarantine;
import org.casebook.banknote.fsn.FsnFile;
import org.casebook.banknote.fsn.FsnVariant;
import org.casebook.banknote.wire.CollectorClient;
import org.casebook.core.InvalidInputException;
import org.casebook.core.LocalFileException;
import org.casebook.core.tls.ClientTls;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The device-side agent, after Flume's spooling-directory source: devices drop finished files (FSN
 * or JSON lines) into a spool directory; the agent reads each whole, sends its notes to the
 * collector in batches, and renames the file to {@code <name>.COMPLETED} only after every batch was
 * acknowledged (the collector acknowledges once the notes are durable in HBase).
 *
 * <ul>
 *   <li>While the collector is away (refused connection, timeout, 5xx) the batch is retried with
 *       exponential back-off and jitter, for as long as it takes.
 *   <li>After each acknowledgement the count of acknowledged notes is written to {@code
 *       .casebook/progress/<name>} (atomically); a restarted agent resumes there. A crash between a
 *       store and its record of progress re-sends at most one batch, which the collector's
 *       identity-derived row keys make harmless.
 *   <li>A malformed file is moved to {@code .casebook/quarantine/} with {@code <name>.reasons};
 *       rejected records of a good file are listed in {@code .casebook/rejects/<name>.rejects}.
 * </ul>
 *
 * <p>As with Flume, a file must be complete and never change once it is in the spool; files
 * modified less than {@code settle} ago and names starting with '.' are left alone.
 */
public final class SpoolAgent {
  private static final Logger LOG = LoggerFactory.getLogger(SpoolAgent.class);

  /** Flume's suffix for a delivered file. */
  public static final String COMPLETED = ".COMPLETED";

  /** Below the collector's 4 MiB request limit with room for the envelope. */
  static final int MAX_BATCH_BYTES = 3 << 20;

  /** How the agent runs. */
  public record Settings(
      Path spool,
      URI server,
      String token,
      FileContext context,
      int batchSize,
      Duration poll,
      Duration settle,
      Duration firstBackoff,
      Duration maxBackoff) {
    public Settings {
      Objects.requireNonNull(spool, "spool is null");
      Objects.requireNonNull(server, "server is null");
      Objects.requireNonNull(context, "context is null");
      InvalidInputException.check(
          batchSize >= 1 && batchSize <= BanknoteService.MAX_BATCH,
          "batch-size",
          "--batch-size must be 1.." + BanknoteService.MAX_BATCH);
      InvalidInputException.check(
          server.getScheme() != null
              && (server.getScheme().equals("http") || server.getScheme().equals("https"))
              && server.getHost() != null,
          "server",
          "--server must be an http(s) URL like http://collector:8080, got " + server);
    }

    public static Settings of(Path spool, URI server, FileContext context) {
      return new Settings(
          spool,
          server,
          null,
          context,
          500,
          Duration.ofSeconds(1),
          Duration.ofSeconds(1),
          Duration.ofMillis(100),
          Duration.ofSeconds(30));
    }

    public Settings withBatchSize(int n) {
      return new Settings(spool, server, token, context, n, poll, settle, firstBackoff, maxBackoff);
    }

    public Settings withTimings(Duration poll, Duration settle, Duration first, Duration max) {
      return new Settings(spool, server, token, context, batchSize, poll, settle, first, max);
    }

    public Settings withToken(String value) {
      return new Settings(
          spool, server, value, context, batchSize, poll, settle, firstBackoff, maxBackoff);
    }
  }

  /**
   * What became of one file: notes sent and acknowledged, records rejected, retries on the way, or
   * the reason it was quarantined.
   */
  public record FileResult(
      String file,
      String format,
      long records,
      long delivered,
      long rejected,
      long retries,
      String quarantined,
      long millis) {}

  /** Raised inside the agent when it is asked to stop mid-file (progress is kept). */
  private static final class Stopped extends Exception {
    private static final long serialVersionUID = 1L;

    Stopped() {
      super("agent stopped");
    }
  }

  private final Settings settings;
  private final CollectorClient client;
  private final Path progressDir;
  private final Path quarantineDir;
  private final Path rejectsDir;
  private volatile boolean stopping;

  public SpoolAgent(Settings settings, HttpClient http) {
    this.settings = Objects.requireNonNull(settings, "settings is null");
    this.client = new CollectorClient(http, settings.server(), settings.token());
    Path meta = settings.spool().resolve(".casebook");
    this.progressDir = meta.resolve("progress");
    this.quarantineDir = meta.resolve("quarantine");
    this.rejectsDir = meta.resolve("rejects");
    InvalidInputException.check(
        Files.isDirectory(settings.spool()),
        "spool",
        "the spool directory " + settings.spool() + " does not exist");
    try {
      Files.createDirectories(progressDir);
    } catch (IOException e) {
      throw LocalFileException.of("create", progressDir, e);
    }
  }

  /** A client for agents: HTTP/1.1, short connect timeout, the JDK's trust store for https. */
  public static HttpClient httpClient() {
    return httpClient(null);
  }

  /**
   * As {@link #httpClient()}, trusting the CA certificates of {@code caFile} (a PEM file; null: the
   * JDK's trust store) for an https collector; the collector's host name is verified either way.
   */
  public static HttpClient httpClient(Path caFile) {
    return ClientTls.httpClient(caFile)
        .version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(Duration.ofSeconds(5))
        .build();
  }

  /** Asks a running {@link #run} or {@link #drain} to stop after the batch in flight. */
  public void stop() {
    stopping = true;
  }

  /** Watches the spool until {@link #stop()}: drains it, waits {@code poll}, again. */
  public void run(Consumer<FileResult> onFile) throws InterruptedException {
    while (!stopping) {
      drain(onFile);
      if (!stopping) {
        Thread.sleep(settings.poll().toMillis());
      }
    }
  }

  /** Delivers every file in the spool now (oldest first) and returns; false if stopped early. */
  public boolean drain(Consumer<FileResult> onFile) throws InterruptedException {
    for (Path file : pending()) {
      if (stopping) {
        return false;
      }
      try {
        onFile.accept(deliver(file));
      } catch (Stopped s) {
        return false;
      }
    }
    return true;
  }

  /** Files ready to send: regular, not hidden, not completed, unchanged for {@code settle}. */
  List<Path> pending() {
    record Candidate(Path path, FileTime modified) {}
    List<Candidate> out = new ArrayList<>();
    long settledBefore = System.currentTimeMillis() - settings.settle().toMillis();
    try (DirectoryStream<Path> dir = Files.newDirectoryStream(settings.spool())) {
      for (Path p : dir) {
        String name = p.getFileName().toString();
        if (name.startsWith(".") || name.endsWith(COMPLETED) || !Files.isRegularFile(p)) {
          continue;
        }
        FileTime modified = Files.getLastModifiedTime(p);
        if (modified.toMillis() <= settledBefore) {
          out.add(new Candidate(p, modified));
        }
      }
    } catch (IOException e) {
      throw LocalFileException.of("list", settings.spool(), e);
    }
    out.sort(
        Comparator.comparing(Candidate::modified)
            .thenComparing(c -> c.path().getFileName().toString()));
    return out.stream().map(Candidate::path).toList();
  }

  private FileResult deliver(Path file) throws InterruptedException, Stopped {
    long t0 = System.nanoTime();
    String name = file.getFileName().toString();
    Path progress = progressDir.resolve(name);
    if (!NoteFiles.readable(name)) {
      return quarantine(file, progress, "unknown file type: expected .fsn or .jsonl", t0, 0);
    }
    ParsedFile parsed;
    byte[] content;
    try {
      content = NoteFiles.bytes(file);
      parsed = NoteFiles.parse(name, content, settings.context());
    } catch (FileRejectedException e) {
      return quarantine(file, progress, e.getMessage(), t0, 0);
    }
    if (!parsed.rejects().isEmpty()) {
      Quarantine.rejects(rejectsDir, name, parsed.rejects());
    }
    List<Note> notes = parsed.notes();
    boolean fsn = name.toLowerCase(Locale.ROOT).endsWith(".fsn");
    int perPiece = fsn ? recordsPerPiece(content) : 0;
    int acked = Math.min(SpoolProgress.read(progress), notes.size());
    long[] retries = {0};
    while (acked < notes.size()) {
      int upTo;
      CollectorClient.Outcome outcome;
      if (fsn) {
        // The file's own bytes: its header and the records from the first unacknowledged note on.
        // Progress stays a count of acknowledged notes, which says where the next piece starts.
        int from = Math.toIntExact(notes.get(acked).record());
        int count = Math.min(perPiece, parsed.records() - from);
        byte[] piece = FsnFile.chunk(content, from, count);
        upTo = acked;
        while (upTo < notes.size() && notes.get(upTo).record() < from + count) {
          upTo++;
        }
        outcome =
            sendUntilAnswered(
                name, acked, () -> client.sendFsn(name, from, piece, settings.context()), retries);
        if (outcome instanceof CollectorClient.Acked a && a.stored() != upTo - acked) {
          return quarantine(
              file,
              progress,
              "the collector stored "
                  + a.stored()
                  + " of the "
                  + (upTo - acked)
                  + " valid notes in records "
                  + from
                  + ".."
                  + (from + count - 1)
                  + "; it reads the file differently (zone, options or version)",
              t0,
              retries[0]);
        }
      } else {
        List<byte[]> batch = new ArrayList<>();
        int bytes = 0;
        for (int i = acked; i < notes.size() && batch.size() < settings.batchSize(); i++) {
          byte[] json = CollectorClient.json(notes.get(i));
          if (!batch.isEmpty() && bytes + json.length + 1 > MAX_BATCH_BYTES) {
            break;
          }
          batch.add(json);
          bytes += json.length + 1;
        }
        upTo = acked + batch.size();
        outcome = sendUntilAnswered(name, acked, () -> client.send(batch), retries);
      }
      if (outcome instanceof CollectorClient.Refused refused) {
        return quarantine(
            file, progress, "the collector refused a batch: " + refused.reason(), t0, retries[0]);
      }
      acked = upTo;
      SpoolProgress.write(progress, acked);
    }
    complete(file, progress);
    return new FileResult(
        name,
        parsed.format(),
        parsed.records(),
        notes.size(),
        parsed.rejects().size(),
        retries[0],
        null,
        (System.nanoTime() - t0) / 1_000_000);
  }

  /** One upload of a batch or a piece. */
  @FunctionalInterface
  private interface Upload {
    CollectorClient.Outcome send() throws InterruptedException;
  }

  /**
   * Sends until the collector acknowledges or refuses, retrying with back-off while it is away;
   * each retry is counted in {@code retries[0]}.
   */
  private CollectorClient.Outcome sendUntilAnswered(
      String name, int acked, Upload upload, long[] retries) throws InterruptedException, Stopped {
    Duration backoff = settings.firstBackoff();
    while (true) {
      if (stopping) {
        throw new Stopped();
      }
      CollectorClient.Outcome outcome = upload.send();
      if (!(outcome instanceof CollectorClient.Retry retry)) {
        return outcome;
      }
      retries[0]++;
      long sleep = jitter(backoff);
      LOG.warn(
          "{}: batch at note {} not delivered ({}); retrying in {} ms",
          name,
          acked,
          retry.reason(),
          sleep);
      Thread.sleep(sleep);
      backoff = backoff.multipliedBy(2);
      if (backoff.compareTo(settings.maxBackoff()) > 0) {
        backoff = settings.maxBackoff();
      }
    }
  }

  /** Records a piece holds: the batch size, and the piece under the collector's body limit. */
  private int recordsPerPiece(byte[] content) {
    FsnVariant v = FsnFile.layout(content);
    int fit = (MAX_BATCH_BYTES - v.headerBytes()) / v.recordBytes();
    return Math.max(1, Math.min(settings.batchSize(), fit));
  }

  /** {@code d} ± 20 %, so agents that lost the collector together do not return in step. */
  private static long jitter(Duration d) {
    long ms = Math.max(1, d.toMillis());
    return ms + ThreadLocalRandom.current().nextLong(-ms / 5, ms / 5 + 1);
  }

  private FileResult quarantine(Path file, Path progress, String reason, long t0, long retries) {
    LOG.warn("{}: quarantined: {}", file.getFileName(), reason);
    Quarantine.file(quarantineDir, file, reason, true);
    SpoolProgress.delete(progress);
    return new FileResult(
        file.getFileName().toString(),
        "unreadable",
        0,
        0,
        0,
        retries,
        reason,
        (System.nanoTime() - t0) / 1_000_000);
  }

  private void complete(Path file, Path progress) {
    Path done = file.resolveSibling(file.getFileName() + COMPLETED);
    try {
      Files.move(file, done, StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException e) {
      throw LocalFileException.of("mark completed", file, e);
    }
    SpoolProgress.delete(progress);
  }
}
