package org.casebook.server;

import static org.assertj.core.api.Assertions.assertThat;

import org.casebook.core.testing.CliChecks;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code --help} everywhere: every option and parameter has a real label and a description. */
class CliHelpTest {
  @Test
  void everyOptionAndParameterIsLabelledAndDescribed() {
    Main main = new Main();
    CommandLine cli = new CommandLine(main);
    var systems = Systems.load();
    try (CliContext context = new CliContext(main.runtimeOptions, systems)) {
      assertThat(CliChecks.helpProblems(Main.withCommands(cli, systems, context))).isEmpty();
    }
  }
}
