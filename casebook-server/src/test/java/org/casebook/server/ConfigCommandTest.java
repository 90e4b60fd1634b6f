package org.casebook.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code casebook config}: every system's declared settings with their sources, no HBase needed;
 * unknown keys and bad values refused naming them. The test-only echo system declares one.
 */
class ConfigCommandTest {
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();
  private PrintStream oldOut;
  private PrintStream oldErr;
  @TempDir Path dir;

  @BeforeEach
  void capture() {
    oldOut = System.out;
    oldErr = System.err;
    System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
    System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  @AfterEach
  void restore() {
    System.setOut(oldOut);
    System.setErr(oldErr);
  }

  private String printed() {
    return out.toString(StandardCharsets.UTF_8);
  }

  private static String lineOf(String text, String key) {
    return text.lines().filter(l -> l.startsWith(key + " ")).findFirst().orElse("");
  }

  @Test
  void listsEverySettingWithItsSource() {
    assertThat(Main.run("--data", dir.toString(), "config")).isZero();
    assertThat(printed()).contains("Settings file: none read");
    assertThat(lineOf(printed(), "echo.upper-case"))
        .contains("true")
        .contains("default")
        .contains("true or false — Echo each line upper-cased");
    assertThat(lineOf(printed(), "data")).contains(dir.toString());
    assertThat(printed()).doesNotContain("HBase:"); // no HBase started
  }

  @Test
  void theSettingsFileAndSetAreSourcesAndSetWins() throws Exception {
    Path file = dir.resolve("casebook.properties");
    Files.writeString(file, "echo.upper-case=false\n");
    assertThat(Main.run("--data", dir.toString(), "config")).isZero();
    assertThat(lineOf(printed(), "echo.upper-case")).contains("false").contains("file " + file);
    out.reset();
    assertThat(Main.run("--data", dir.toString(), "--set", "echo.upper-case=true", "config"))
        .isZero();
    assertThat(lineOf(printed(), "echo.upper-case")).contains("true").contains("--set");
    out.reset();
    assertThat(Main.run("--data", dir.toString(), "config", "--json")).isZero();
    assertThat(printed())
        .contains("\"key\" : \"echo.upper-case\"")
        .contains("\"source\" : \"file\"");
  }

  @Test
  void anUnknownKeyOrABadValueIsRefusedNamingIt() throws Exception {
    assertThat(Main.run("--data", dir.toString(), "--set", "echo.lower-case=true", "config"))
        .isEqualTo(2);
    assertThat(err.toString(StandardCharsets.UTF_8))
        .contains("casebook: invalid set: unknown setting 'echo.lower-case' in --set")
        .contains("echo.upper-case");
    assertThat(Main.run("--data", dir.toString(), "--set", "echo.upper-case=maybe", "config"))
        .isEqualTo(2);
    assertThat(err.toString(StandardCharsets.UTF_8))
        .contains("invalid echo.upper-case: echo.upper-case (from --set echo.upper-case)")
        .contains("must be true or false, got 'maybe'");
    Path missing = dir.resolve("none.properties");
    assertThat(Main.run("--data", dir.toString(), "--settings", missing.toString(), "config"))
        .isEqualTo(7);
  }
}
