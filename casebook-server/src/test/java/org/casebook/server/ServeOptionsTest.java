package org.casebook.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.casebook.core.AccessRule;
import org.casebook.core.InvalidInputException;
import org.casebook.core.cli.RuntimeOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The write token comes from a file (not visible in ps) or the environment. */
class ServeOptionsTest {
  private static AccessRule parse(String... args) {
    ServeCommand serve =
        new ServeCommand(List.of(), new CliContext(new RuntimeOptions(), List.of()));
    new CommandLine(serve).parseArgs(args);
    return serve.accessRule();
  }

  @Test
  void tokenFromAFile(@TempDir Path dir) throws Exception {
    Path file = Files.writeString(dir.resolve("token"), "s3cret\nignored\n");
    AccessRule rule = parse("--token-file", file.toString());
    assertThat(rule.writesNeedToken()).isTrue();
    assertThat(rule.allowsWriteWithHeader("Bearer s3cret")).isTrue();
    assertThat(rule.allowsWriteWithHeader("bearer s3cret"))
        .as("scheme is case-insensitive")
        .isTrue();
    assertThat(rule.allowsWriteWithHeader("Bearer other")).isFalse();
    Path empty = Files.writeString(dir.resolve("empty"), "\n");
    assertThatThrownBy(() -> parse("--token-file", empty.toString()))
        .isInstanceOf(InvalidInputException.class);
  }
}
