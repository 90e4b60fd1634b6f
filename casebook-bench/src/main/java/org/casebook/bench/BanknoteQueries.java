package org.casebook.bench;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import org.casebook.banknote.BanknoteService;
import org.casebook.banknote.Note;
import org.casebook.banknote.gen.BanknoteGenerator;
import org.casebook.core.cli.Progress;
import org.casebook.core.page.PageRequest;

/**
 * The tables filled to {@code --rows} notes through the service's bulk writer, then serial lookups
 * (through the Java API and over HTTP) and one-hour device windows timed.
 */
final class BanknoteQueries {
  private final BanknoteService service;
  private final URI base;
  private final HttpClient http;
  private final BanknoteOptions o;
  private final LocalDate day;
  private final ZoneId zone;

  /**
   * @param service the service on the benchmark's tables
   * @param base where the same tables are served over HTTP
   * @param day the day the agents' first round read (the preload takes the next one)
   */
  BanknoteQueries(
      BanknoteService service,
      URI base,
      HttpClient http,
      BanknoteOptions options,
      LocalDate day,
      ZoneId zone) {
    this.service = service;
    this.base = base;
    this.http = http;
    this.o = options;
    this.day = day;
    this.zone = zone;
  }

  /**
   * Writes notes until the tables hold {@code --rows} (the agents stored {@code stored}); a share
   * of their serials joins {@code serials}, the lookups' candidates.
   */
  void preload(long stored, List<String> serials, BenchTable table) {
    long more = o.rows - stored;
    if (more <= 0) {
      return;
    }
    BanknoteGenerator gen =
        new BanknoteGenerator(
            new BanknoteGenerator.Spec(
                o.devices, 1, o.notesPerDevice, 0, 0, false, 11, day.plusDays(1), zone));
    SplittableRandom pick = new SplittableRandom(5);
    long t0 = System.nanoTime();
    try (Progress p = Progress.start("preload", more, "notes");
        BanknoteService.BulkWriter w = service.writer()) {
      gen.notes(
          more,
          1000,
          notes -> {
            w.write(notes);
            for (Note n : notes) {
              if (pick.nextInt(1000) == 0) {
                serials.add(n.serial());
              }
            }
            p.advance(notes.size());
          });
      w.flush();
    }
    table.add(
        "bulk writer to --rows (4 tables)",
        more,
        "notes",
        (System.nanoTime() - t0) / 1e9,
        null,
        "BufferedMutators, no HTTP");
  }

  /** Times lookups of {@code serials} and device windows. */
  void run(List<String> serials, BenchTable table) throws Exception {
    SplittableRandom r = new SplittableRandom(17);
    for (int i = 0; i < 500; i++) {
      service.history(serials.get(r.nextInt(serials.size())), PageRequest.first(100), false);
    }
    Latency lookup = new Latency();
    long found = 0;
    for (int i = 0; i < o.samples; i++) {
      String s = serials.get(r.nextInt(serials.size()));
      long t = System.nanoTime();
      found += service.history(s, PageRequest.first(100), false).items().size();
      lookup.recordNanos(System.nanoTime() - t);
    }
    table.add(
        "serial lookup (history, first 100)",
        lookup.count(),
        "reads",
        0,
        lookup,
        String.format(
            Locale.ROOT, "%.2f notes a serial; one bounded scan", (double) found / o.samples));
    Latency viaHttp = new Latency();
    for (int i = 0; i < Math.max(100, o.samples / 5); i++) {
      String s = serials.get(r.nextInt(serials.size()));
      long t = System.nanoTime();
      HttpResponse<String> resp =
          http.send(
              HttpRequest.newBuilder(URI.create(base + "/api/banknotes/" + s)).build(),
              HttpResponse.BodyHandlers.ofString());
      viaHttp.recordNanos(System.nanoTime() - t);
      if (resp.statusCode() != 200) {
        throw new IllegalStateException(
            "lookup answered " + resp.statusCode() + ": " + resp.body());
      }
    }
    table.add("serial lookup over HTTP (GET)", viaHttp.count(), "reads", 0, viaHttp, "JSON answer");

    BanknoteGenerator devices =
        new BanknoteGenerator(
            new BanknoteGenerator.Spec(o.devices, 1, 1, 0, 0, false, 7, day, zone));
    List<BanknoteGenerator.Device> list = devices.devices();
    Latency window = new Latency();
    long rows = 0;
    for (int i = 0; i < 300 + o.samples; i++) {
      BanknoteGenerator.Device d = list.get(r.nextInt(list.size()));
      LocalDate date =
          r.nextBoolean()
              ? day
              : day.plusDays(
                  1
                      + r.nextInt(
                          Math.max(1, (int) (o.rows / Math.max(1, (long) o.devices * 1000)))));
      Instant from = date.atTime(8 + r.nextInt(11), 0).atZone(zone).toInstant();
      long t = System.nanoTime();
      int n =
          service
              .device(d.id(), from, from.plusSeconds(3600), PageRequest.first(100))
              .items()
              .size();
      if (i >= 300) {
        window.recordNanos(System.nanoTime() - t);
        rows += n;
      }
    }
    table.add(
        "device window (1 hour, first 100)",
        window.count(),
        "reads",
        0,
        window,
        String.format(Locale.ROOT, "%.1f notes a window", (double) rows / o.samples));
  }
}
