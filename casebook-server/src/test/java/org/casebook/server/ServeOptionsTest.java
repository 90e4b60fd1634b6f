package org.casebook.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.casebook.core.AccessRule;
import org.casebook.core.InvalidInputException;
import org.casebook.core.access.Action;
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
    assertThat(rule.mode()).isEqualTo(AccessRule.Mode.TOKEN);
    assertThat(rule.byHeader("Bearer s3cret").orElseThrow().may("tsdb", Action.ADMIN)).isTrue();
    assertThat(rule.byHeader("bearer s3cret")).as("scheme is case-insensitive").isPresent();
    assertThat(rule.byHeader("Bearer other")).isEmpty();
    Path empty = Files.writeString(dir.resolve("empty"), "\n");
    assertThatThrownBy(() -> parse("--token-file", empty.toString()))
        .isInstanceOf(InvalidInputException.class);
  }

  @Test
  void beyondLoopbackOneTokenClosesThePrivateSystemsReadsAndAnAccessFileSaysItself(
      @TempDir Path dir) throws Exception {
    List<org.casebook.core.CasebookSystem> systems = Systems.load();
    ServeCommand wide = new ServeCommand(systems, new CliContext(new RuntimeOptions(), List.of()));
    new CommandLine(wide).parseArgs("--bind", "0.0.0.0", "--token", "t", "--insecure");
    AccessRule rule = wide.accessRule();
    assertThat(rule.anonymous().may("banknote", Action.READ)).isFalse();
    assertThat(rule.anonymous().may("docs", Action.READ)).isFalse();
    assertThat(rule.anonymous().may("trails", Action.READ)).isFalse();
    assertThat(rule.anonymous().may("tsdb", Action.READ)).isTrue();
    ServeCommand openWide =
        new ServeCommand(systems, new CliContext(new RuntimeOptions(), List.of()));
    new CommandLine(openWide).parseArgs("--bind", "0.0.0.0", "--insecure");
    assertThat(openWide.accessRule().anonymous().may("docs", Action.READ))
        .as("no credentials beyond loopback: private systems answer nobody")
        .isFalse();
    assertThat(openWide.accessRule().anonymous().may("weibo", Action.WRITE)).isTrue();
    assertThat(parse("--token", "t").anonymous().may("banknote", Action.READ))
        .as("on loopback reads stay open")
        .isTrue();

    Path file =
        Files.writeString(
            dir.resolve("access.json"),
            "{\"principals\":[{\"name\":\"ops\",\"token_file\":\"t\",\"grants\":{\"nosuch\":\"read\"}}]}");
    Files.writeString(dir.resolve("t"), "tok\n");
    ServeCommand withFile =
        new ServeCommand(systems, new CliContext(new RuntimeOptions(), List.of()));
    new CommandLine(withFile).parseArgs("--access-file", file.toString());
    assertThatThrownBy(withFile::accessRule)
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("nosuch");
    ServeCommand both = new ServeCommand(systems, new CliContext(new RuntimeOptions(), List.of()));
    new CommandLine(both).parseArgs("--access-file", file.toString(), "--token", "t");
    assertThatThrownBy(both::accessRule)
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("--access-file declares the tokens");
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
