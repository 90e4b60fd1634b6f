package org.casebook.bench;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneId;
import org.casebook.banknote.DeviceKind;
import org.casebook.banknote.FileContext;
import org.casebook.banknote.Note;
import org.casebook.banknote.agent.SpoolAgent;
import org.casebook.banknote.gen.BanknoteGenerator;
import org.casebook.core.LocalFileException;

/**
 * A device of its own whose agent watches its spool all along: a 20-note file dropped in, then
 * lookups of its last serial over HTTP until the note is there — the delay from a file landing in a
 * spool to its notes answering a lookup.
 */
final class BanknoteProbe {
  final Latency latency = new Latency();
  private final Path spool;
  private final URI base;
  private final HttpClient http;
  private final LocalDate day;
  private final ZoneId zone;
  private volatile boolean stopping;

  BanknoteProbe(Path spool, URI base, HttpClient http, LocalDate day, ZoneId zone) {
    this.spool = spool;
    this.base = base;
    this.http = http;
    this.day = day;
    this.zone = zone;
  }

  /** Asks {@link #run} to end once it has timed 20 files. */
  void stop() {
    stopping = true;
  }

  void run() {
    BanknoteGenerator gen =
        new BanknoteGenerator(new BanknoteGenerator.Spec(1, 1, 20, 0, 0, false, 99, day, zone));
    BanknoteGenerator.Device device =
        new BanknoteGenerator.Device("PROBE/SORTER-1", DeviceKind.SORTER, "9999-001", "probe");
    try {
      Files.createDirectories(spool);
      SpoolAgent agent =
          new SpoolAgent(
              SpoolAgent.Settings.of(spool, base, FileContext.none())
                  .withTimings(
                      Duration.ofMillis(50),
                      Duration.ZERO,
                      Duration.ofMillis(50),
                      Duration.ofSeconds(1)),
              http);
      Thread watcher =
          new Thread(
              () -> {
                try {
                  agent.run(r -> {});
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
              },
              "bench-probe-agent");
      watcher.setDaemon(true);
      watcher.start();
      Path staging = Files.createDirectories(spool.resolveSibling("probe-staging"));
      int n = 0;
      while (!stopping || n < 20) {
        BanknoteGenerator.GeneratedFile f =
            gen.file(
                device,
                staging,
                day.atTime(9, 0).atZone(zone).toInstant().plusSeconds(60L * n),
                20);
        Note last = f.notes().get(f.notes().size() - 1);
        long s = System.nanoTime();
        Files.move(f.path(), spool.resolve(f.path().getFileName()));
        while (!found(last)) {
          Thread.sleep(5);
        }
        latency.recordNanos(System.nanoTime() - s);
        n++;
        Thread.sleep(200);
      }
      agent.stop();
      watcher.join(10_000);
    } catch (IOException e) {
      throw LocalFileException.of("write probe files in", spool, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private boolean found(Note n) throws IOException, InterruptedException {
    HttpResponse<String> r =
        http.send(
            HttpRequest.newBuilder(
                    URI.create(
                        base
                            + "/api/banknotes/"
                            + URLEncoder.encode(n.serial(), StandardCharsets.UTF_8)
                            + "?limit=1000"))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    return r.statusCode() == 200 && r.body().contains("\"source\":\"" + n.source() + "\"");
  }
}
