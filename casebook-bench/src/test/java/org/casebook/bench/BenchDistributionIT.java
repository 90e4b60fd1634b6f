package org.casebook.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The benchmark distribution ({@code target/casebook-bench/}) runs as users run it, {@code java
 * -jar casebook-bench.jar}: the service's commands and {@code bench}, with the benchmarks' own jars
 * and OpenTSDB's beside it.
 */
class BenchDistributionIT {
  private static final Path DIST = Path.of("target", "casebook-bench").toAbsolutePath();

  @TempDir Path dir;

  private record Run(int exit, String out) {}

  private Run run(String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-jar");
    command.add(DIST.resolve("casebook-bench.jar").toString());
    command.add("--data");
    command.add(dir.resolve("data").toString());
    command.addAll(List.of(args));
    Path log = dir.resolve("out.txt");
    Process p =
        new ProcessBuilder(command)
            .directory(dir.toFile())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("finished").isTrue();
    return new Run(p.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
  }

  @Test
  void benchAndTheServiceCommandsRunFromThePackagedJar() throws Exception {
    Run help = run("bench", "--help");
    assertThat(help.exit()).as(help.out()).isZero();
    assertThat(help.out()).contains("trails").contains("tsdb").contains("console");
    Run config = run("config");
    assertThat(config.exit()).as(config.out()).isZero();
    assertThat(config.out()).contains("Settings file:");

    Path a = dir.resolve("a.json");
    Path b = dir.resolve("b.json");
    Files.writeString(a, "{\"results\":[{\"step\":\"put\",\"p50\":2.0}]}");
    Files.writeString(b, "{\"results\":[{\"step\":\"put\",\"p50\":3.0}]}");
    Run compare = run("bench", "compare", a.toString(), b.toString());
    assertThat(compare.exit()).as(compare.out()).isZero();
    assertThat(compare.out()).contains("1.50");
  }

  @Test
  void openTsdbsJarsAreBesideTheBenchmarks() throws IOException {
    try (var files = Files.list(DIST.resolve("peers").resolve("opentsdb"))) {
      assertThat(files.map(f -> f.getFileName().toString()))
          .anyMatch(n -> n.startsWith("opentsdb"));
    }
    try (var files = Files.list(DIST.resolve("lib"))) {
      assertThat(files.map(f -> f.getFileName().toString()))
          .anyMatch(n -> n.startsWith("casebook-server"))
          .anyMatch(n -> n.startsWith("selenium-chrome-driver"))
          .anyMatch(n -> n.startsWith("postgresql"))
          .noneMatch(n -> n.startsWith("opentsdb"));
    }
  }
}
