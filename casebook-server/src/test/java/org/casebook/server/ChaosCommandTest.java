package org.casebook.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.casebook.core.chaos.ChaosAction;
import org.casebook.core.chaos.ChaosEvent;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code casebook chaos}: the kill options checked before HBase is reached, and the table showing
 * each kill with its recovery time.
 */
class ChaosCommandTest {
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();
  private PrintStream oldErr;
  @TempDir Path dir;

  @BeforeEach
  void capture() {
    oldErr = System.err;
    System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  @AfterEach
  void restore() {
    System.setErr(oldErr);
  }

  private int run(String... args) {
    String[] all = new String[args.length + 3];
    all[0] = "--data";
    all[1] = dir.toString();
    all[2] = "chaos";
    System.arraycopy(args, 0, all, 3, args.length);
    return Main.run(all);
  }

  private String errors() {
    return err.toString(StandardCharsets.UTF_8);
  }

  @Test
  void aKillCommandWithoutItsStartCommandIsRefused() {
    assertThat(run("--kill-regionserver-command", "kill -9 1")).isNotZero();
    assertThat(errors()).contains("invalid kill-regionserver-command").contains("start command");
  }

  @Test
  void aMasterStartCommandWithoutItsKillCommandIsRefused() {
    assertThat(run("--start-master-command", "true")).isNotZero();
    assertThat(errors()).contains("invalid kill-master-command");
  }

  @Test
  void aKillActionAskedForWithoutItsCommandsIsRefused() {
    assertThat(run("--actions", "split,kill-regionserver")).isNotZero();
    assertThat(errors())
        .contains("invalid actions")
        .contains("--kill-regionserver-command and --start-regionserver-command");
  }

  @Test
  void badPauseAndTimeoutValuesAreRefused() {
    assertThat(run("--restart-pause-seconds", "-1")).isNotZero();
    assertThat(errors()).contains("invalid restart-pause-seconds");
    assertThat(run("--recovery-timeout-seconds", "0")).isNotZero();
    assertThat(errors()).contains("invalid recovery-timeout-seconds");
    assertThat(run("--master-kills", "-2")).isNotZero();
    assertThat(errors()).contains("invalid master-kills");
  }

  @Test
  void theKillsJoinTheDefaultActionsOnlyWithTheirCommands() {
    ChaosCommand none = new ChaosCommand(null);
    assertThat(none.chosenActions(none.processCommands()))
        .containsExactlyElementsOf(ChaosAction.regionActions());
    ChaosCommand both = new ChaosCommand(null);
    both.killRegionServer = "kill -9 {port}";
    both.startRegionServer = "start";
    both.killMaster = "kill master";
    both.startMaster = "start";
    assertThat(both.chosenActions(both.processCommands()))
        .endsWith(ChaosAction.KILL_REGIONSERVER, ChaosAction.KILL_MASTER)
        .hasSize(ChaosAction.regionActions().size() + 2);
  }

  @Test
  void theTableShowsEachKillWithItsRecoveryTime() {
    String table =
        ChaosCommand.table(
            List.of(
                new ChaosEvent(100, ChaosAction.SPLIT, "t", "r", "done", 5),
                new ChaosEvent(
                    2_000,
                    ChaosAction.KILL_REGIONSERVER,
                    "-",
                    "127.0.0.1:29630",
                    "done",
                    31_000,
                    24_500),
                new ChaosEvent(
                    40_000,
                    ChaosAction.KILL_MASTER,
                    "-",
                    "-",
                    "skipped: the master was killed 1 time(s) in this run",
                    0)));
    assertThat(table)
        .contains("kill-regionserver      1        0        0          0")
        .contains(
            "kill-regionserver 127.0.0.1:29630       at      2.0 s: done, recovered in 24.5 s")
        .doesNotContain("kill-master       -");
    assertThat(
            new ChaosEvent(2_000, ChaosAction.KILL_MASTER, "-", "h:1", "done", 9, 8_000).toJson())
        .containsEntry("recovery_ms", 8_000L);
    assertThat(new ChaosEvent(1, ChaosAction.FLUSH, "t", "r", "done", 2).toJson())
        .doesNotContainKey("recovery_ms");
  }
}
