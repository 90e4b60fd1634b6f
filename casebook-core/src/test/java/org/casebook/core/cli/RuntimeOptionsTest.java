package org.casebook.core.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

class RuntimeOptionsTest {
  @Command(name = "top", subcommands = Sub.class)
  static final class Top {
    @Mixin RuntimeOptions options;
  }

  @Command(name = "sub")
  static final class Sub implements Runnable {
    @Override
    public void run() {}
  }

  @Test
  void repeatedOverridesBeforeAndAfterASubcommandAllCount() {
    Top top = new Top();
    new CommandLine(top)
        .parseArgs(
            RuntimeOptions.hoistRepeatable(
                "--hbase", "a.b=1", "sub", "--hbase=c.d=2", "--set", "x.y=3"));
    assertThat(top.options.overrides).isEqualTo(Map.of("a.b", "1", "c.d", "2"));
    assertThat(top.options.settingValues).isEqualTo(Map.of("x.y", "3"));
  }

  @Test
  void onlyTheRepeatableOptionsMoveAndTheRestKeepsItsOrder() {
    assertThat(
            RuntimeOptions.hoistRepeatable(
                "--data", "d", "sub", "--hbase", "k=v", "arg", "--", "--set", "s=t"))
        .containsExactly("--hbase", "k=v", "--data", "d", "sub", "arg", "--", "--set", "s=t");
    assertThat(RuntimeOptions.hoistRepeatable("sub", "--hbase"))
        .as("a missing value is left for the parser to report")
        .containsExactly("sub", "--hbase");
  }
}
