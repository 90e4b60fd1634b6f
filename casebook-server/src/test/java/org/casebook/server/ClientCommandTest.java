package org.casebook.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.casebook.core.cli.RuntimeOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The banknote device agent is a client of a server: the options that choose and configure an HBase
 * are not offered on it, and given anywhere on its command line they are refused.
 */
class ClientCommandTest {
  private static final Set<String> RUNTIME =
      Set.of("--data", "--zk", "--conf", "--hbase", "--settings", "--set");

  private static Set<String> options(CommandLine command) {
    return command.getCommandSpec().options().stream()
        .map(o -> o.longestName())
        .collect(Collectors.toSet());
  }

  private record Run(int exit, String err) {}

  private static Run run(String... args) {
    Main main = new Main();
    CommandLine cli = new CommandLine(main);
    var systems = Systems.load();
    StringWriter err = new StringWriter();
    try (CliContext context = new CliContext(main.runtimeOptions, systems)) {
      Main.withCommands(cli, systems, context);
      cli.setErr(new PrintWriter(err, true));
      int exit = cli.execute(RuntimeOptions.hoistRepeatable(args));
      return new Run(exit, err.toString());
    }
  }

  @Test
  void theAgentOffersOnlyItsOwnOptions() {
    Main main = new Main();
    CommandLine cli = new CommandLine(main);
    var systems = Systems.load();
    try (CliContext context = new CliContext(main.runtimeOptions, systems)) {
      Main.withCommands(cli, systems, context);
      CommandLine banknote = cli.getSubcommands().get("banknote");
      CommandLine agent = banknote.getSubcommands().get("agent");
      assertThat(options(agent))
          .contains("--spool", "--server", "--token", "--device", "--batch-size")
          .doesNotContainAnyElementsOf(RUNTIME);
      assertThat(agent.getUsageMessage()).doesNotContain("--zk", "--data", "--hbase", "--conf");
      // The system's other commands open HBase and keep them.
      assertThat(options(banknote.getSubcommands().get("generate"))).containsAll(RUNTIME);
      assertThat(options(cli.getSubcommands().get("serve"))).containsAll(RUNTIME);
    }
  }

  @Test
  void runtimeOptionsGivenToTheAgentAreRefused(@TempDir Path dir) throws Exception {
    String spool = Files.createDirectories(dir.resolve("spool")).toString();
    List<String> agent =
        List.of("banknote", "agent", "--spool", spool, "--server", "http://127.0.0.1:1", "--once");
    for (List<String> given :
        List.of(
            List.of("--zk", "127.0.0.1:2181"), List.of("--hbase", "a=b"), List.of("--data", "d"))) {
      Run after = run(concat(agent, given));
      assertThat(after.exit()).as("after the agent: " + given + after.err()).isEqualTo(2);
      assertThat(after.err()).contains(given.get(0));

      Run before = run(concat(given, agent));
      assertThat(before.exit()).as("before the agent: " + given + before.err()).isEqualTo(2);
      assertThat(before.err())
          .contains(given.get(0) + " does not apply to 'casebook banknote agent'");
    }
  }

  private static String[] concat(List<String> a, List<String> b) {
    return java.util.stream.Stream.concat(a.stream(), b.stream()).toArray(String[]::new);
  }
}
