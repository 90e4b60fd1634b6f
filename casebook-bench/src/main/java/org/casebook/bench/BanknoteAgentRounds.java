package org.casebook.bench;

import java.net.URI;
import java.net.http.HttpClient;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.casebook.banknote.FileContext;
import org.casebook.banknote.agent.SpoolAgent;
import org.casebook.banknote.gen.BanknoteGenerator;
import org.casebook.core.Threads;
import org.casebook.core.cli.Progress;

/**
 * The devices' agents against the served collector at {@code base}: one agent per generated device
 * on its own spool directory, the agents sharing {@code agentThreads} threads, each draining its
 * spool once; optionally a probe timing file-to-lookup delay meanwhile.
 */
final class BanknoteAgentRounds {
  /** One round through the agents: notes, seconds, retries, quarantined files, the probe. */
  record Ingest(
      long delivered, double seconds, long retries, long quarantined, BanknoteProbe probe) {
    double notesPerSecond() {
      return delivered / seconds;
    }

    Map<String, Object> toJson() {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("notes", delivered);
      m.put("seconds", seconds);
      m.put("notesPerSecond", notesPerSecond());
      m.put("retries", retries);
      m.put("quarantinedFiles", quarantined);
      return m;
    }
  }

  private final URI base;
  private final HttpClient http;
  private final int agentThreads;
  private final int batchSize;
  private final LocalDate probeDay;
  private final ZoneId zone;

  BanknoteAgentRounds(
      URI base, HttpClient http, int agentThreads, int batchSize, LocalDate probeDay, ZoneId zone) {
    this.base = base;
    this.http = http;
    this.agentThreads = agentThreads;
    this.batchSize = batchSize;
    this.probeDay = probeDay;
    this.zone = zone;
  }

  /**
   * Every device's agent drains its spool, timed; with {@code probing}, a probe measures
   * file-to-lookup delay meanwhile. The agents must deliver the {@code notes} the files hold.
   */
  Ingest round(BanknoteGenerator gen, Path spools, long notes, boolean probing) throws Exception {
    BanknoteProbe probe = new BanknoteProbe(spools.resolve("probe"), base, http, probeDay, zone);
    Thread probes = new Thread(probe::run, "bench-probe");
    probes.setDaemon(true);
    long t0 = System.nanoTime();
    if (probing) {
      probes.start();
    }
    long[] counts;
    try {
      counts = drain(gen, spools, "agents", notes);
    } finally {
      probe.stop();
    }
    double secs = (System.nanoTime() - t0) / 1e9;
    if (probing) {
      probes.join(60_000);
    }
    if (counts[0] != notes) {
      throw new IllegalStateException(
          "agents delivered " + counts[0] + " notes, the files hold " + notes);
    }
    return new Ingest(counts[0], secs, counts[1], counts[2], probe);
  }

  /**
   * Drains every agent's spool on the agent threads: notes delivered, retries, quarantined files.
   */
  long[] drain(BanknoteGenerator gen, Path spools, String label, long notes) throws Exception {
    List<SpoolAgent> agents = agents(gen, spools);
    AtomicLong delivered = new AtomicLong();
    AtomicLong quarantined = new AtomicLong();
    AtomicLong retries = new AtomicLong();
    ExecutorService pool =
        Executors.newFixedThreadPool(agentThreads, Threads.daemon("bench-agent"));
    try (Progress p = Progress.start(label, notes, "notes")) {
      List<Future<?>> futures = new ArrayList<>();
      for (SpoolAgent a : agents) {
        futures.add(
            pool.submit(
                () ->
                    a.drain(
                        r -> {
                          delivered.addAndGet(r.delivered());
                          retries.addAndGet(r.retries());
                          quarantined.addAndGet(r.quarantined() == null ? 0 : 1);
                          p.advance(r.delivered());
                        })));
      }
      for (Future<?> f : futures) {
        f.get();
      }
    } finally {
      pool.shutdown();
    }
    return new long[] {delivered.get(), retries.get(), quarantined.get()};
  }

  /** One agent per generated device, each on its own spool directory. */
  private List<SpoolAgent> agents(BanknoteGenerator gen, Path spools) {
    List<SpoolAgent> agents = new ArrayList<>();
    for (BanknoteGenerator.Device d : gen.devices()) {
      agents.add(
          new SpoolAgent(
              SpoolAgent.Settings.of(spools.resolve(d.dir()), base, FileContext.none())
                  .withBatchSize(batchSize)
                  .withTimings(
                      Duration.ofMillis(100),
                      Duration.ZERO,
                      Duration.ofMillis(100),
                      Duration.ofSeconds(5)),
              http));
    }
    return agents;
  }
}
