package org.casebook.bench;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.casebook.core.InvalidInputException;
import picocli.CommandLine.Option;

/** Sizes; the defaults are the (1,000 devices, 10M rows), about 10 minutes here. */
final class BanknoteOptions {
  @Option(
      paramLabel = "N",
      names = "--devices",
      defaultValue = "1000",
      description = "Simulated devices, one agent each (default ${DEFAULT-VALUE}).")
  int devices;

  @Option(
      paramLabel = "N",
      names = "--notes-per-device",
      defaultValue = "300",
      description = "Notes each device's files hold for the agent run (default ${DEFAULT-VALUE}).")
  int notesPerDevice;

  @Option(
      paramLabel = "N",
      names = "--rows",
      defaultValue = "10000000",
      description =
          "Notes in the tables when queries are timed (default ${DEFAULT-VALUE}); more for a"
              + " larger run, fewer (e.g. 500000) while developing.")
  long rows;

  @Option(
      paramLabel = "N",
      names = "--agent-threads",
      defaultValue = "32",
      description = "Threads the agents share (default ${DEFAULT-VALUE}).")
  int agentThreads;

  @Option(
      paramLabel = "N",
      names = "--batch-size",
      defaultValue = "500",
      description = "Notes per agent batch (default ${DEFAULT-VALUE}).")
  int batchSize;

  @Option(
      paramLabel = "N",
      names = "--samples",
      defaultValue = "5000",
      description = "Timed lookups and window queries each (default ${DEFAULT-VALUE}).")
  int samples;

  @Option(
      paramLabel = "N",
      names = "--rounds",
      defaultValue = "3",
      description =
          "Rounds of a raw write then the devices' files through the agents, alternating after"
              + " the warm-up; medians compared (default ${DEFAULT-VALUE}).")
  int rounds;

  @Option(names = "--images", description = "Files carry serial images (1,644-byte records).")
  boolean images;

  @Option(names = "--keep", description = "Keep the benchmark's tables afterwards.")
  boolean keep;

  @Option(
      paramLabel = "DIR",
      names = "--work",
      defaultValue = "bench-work/banknote",
      description = "Scratch directory for the spools (default ${DEFAULT-VALUE}).")
  Path work;

  void validate() {
    InvalidInputException.check(devices >= 1, "devices", "--devices must be at least 1");
    InvalidInputException.check(
        notesPerDevice >= 10, "notes-per-device", "--notes-per-device must be at least 10");
    InvalidInputException.check(rows >= 10_000, "rows", "--rows must be at least 10000");
    InvalidInputException.check(
        agentThreads >= 1 && agentThreads <= 512, "agent-threads", "--agent-threads is 1..512");
    InvalidInputException.check(samples >= 100, "samples", "--samples must be at least 100");
    InvalidInputException.check(rounds >= 1 && rounds <= 9, "rounds", "--rounds is 1..9");
  }

  Map<String, Object> toJson() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("devices", devices);
    m.put("notesPerDevice", notesPerDevice);
    m.put("rows", rows);
    m.put("agentThreads", agentThreads);
    m.put("batchSize", batchSize);
    m.put("samples", samples);
    m.put("rounds", rounds);
    m.put("images", images);
    return m;
  }
}
