package org.casebook.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.casebook.core.testing.CliChecks;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * {@code bench --help} everywhere: every option and parameter has a real label and a description.
 */
class BenchHelpTest {
  @Test
  void everyOptionAndParameterIsLabelledAndDescribed() {
    // Help never asks the session for anything.
    CommandLine bench = new CommandLine(new BenchCommand(null));
    assertThat(CliChecks.helpProblems(bench)).isEmpty();
  }
}
