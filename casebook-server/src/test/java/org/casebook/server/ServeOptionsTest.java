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

/**
 * The write token comes from a file (not visible in ps) or the environment; plain text beyond
 * loopback needs {@code --insecure}; TLS files come in pairs.
 */
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

  private static ServeCommand serve(String... args) {
    ServeCommand serve =
        new ServeCommand(List.of(), new CliContext(new RuntimeOptions(), List.of()));
    new CommandLine(serve).parseArgs(args);
    return serve;
  }

  @Test
  void plainTextBeyondLoopbackNeedsInsecure() {
    ServeCommand.checkTransport("127.0.0.1", false, false);
    ServeCommand.checkTransport("localhost", false, false);
    ServeCommand.checkTransport("::1", false, false);
    ServeCommand.checkTransport("0.0.0.0", true, false);
    ServeCommand.checkTransport("0.0.0.0", false, true);
    assertThatThrownBy(() -> ServeCommand.checkTransport("0.0.0.0", false, false))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("--insecure")
        .hasMessageContaining("--tls-cert");
    assertThatThrownBy(() -> ServeCommand.checkTransport("0.0.0.0", true, true))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("--insecure");
  }

  @Test
  void serveOnEveryAddressWithoutTlsFailsAtStartNamingInsecure(@TempDir Path dir) {
    java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
    java.io.PrintStream old = System.err;
    System.setErr(new java.io.PrintStream(err, true, java.nio.charset.StandardCharsets.UTF_8));
    int code;
    try {
      code = Main.run("--data", dir.toString(), "serve", "--bind", "0.0.0.0", "--port", "0");
    } finally {
      System.setErr(old);
    }
    assertThat(code).isEqualTo(2);
    assertThat(err.toString(java.nio.charset.StandardCharsets.UTF_8))
        .contains("--insecure")
        .contains("0.0.0.0 is not a loopback address")
        .doesNotContain("\tat org.");
  }

  @Test
  void tlsFilesComeInPairsOfOneKind(@TempDir Path dir) {
    Path f = dir.resolve("f");
    assertThat(serve().tlsFiles()).isEmpty();
    assertThat(serve("--tls-cert", f.toString(), "--tls-key", f.toString()).tlsFiles()).isPresent();
    assertThat(
            serve("--tls-keystore", f.toString(), "--tls-keystore-password-file", f.toString())
                .tlsFiles())
        .isPresent();
    assertThatThrownBy(() -> serve("--tls-cert", f.toString()).tlsFiles())
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("--tls-key");
    assertThatThrownBy(() -> serve("--tls-keystore", f.toString()).tlsFiles())
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("--tls-keystore-password-file");
    assertThatThrownBy(
            () ->
                serve(
                        "--tls-cert",
                        f.toString(),
                        "--tls-key",
                        f.toString(),
                        "--tls-keystore",
                        f.toString())
                    .tlsFiles())
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("not both");
  }
}
