package org.casebook.banknote.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.casebook.banknote.BanknoteService;
import org.casebook.banknote.BanknoteSystem;
import org.casebook.banknote.DeviceKind;
import org.casebook.banknote.Note;
import org.casebook.banknote.Operation;
import org.casebook.banknote.Verdict;
import org.casebook.core.HBaseRuntime;
import org.casebook.core.Platform;
import org.casebook.core.SystemContext;
import org.casebook.core.schema.SchemaManager;
import org.casebook.core.testing.EmbeddedHBase;
import org.casebook.core.testing.TestIds;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import picocli.CommandLine;

/**
 * {@code banknote settlement} prints the day as a table or CSV; {@code banknote deliver} closes it.
 */
@ExtendWith(EmbeddedHBase.class)
class BanknoteSettlementCliIT {
  private Platform platform;
  private SystemContext context;
  private final String run = TestIds.unique("sc");
  private final String branch = "br-" + run;
  private final String atm = "ATM/" + run;

  @BeforeEach
  void setUp(HBaseRuntime runtime) {
    new SchemaManager(runtime.connection()).ensureAll(new BanknoteSystem().descriptor().tables());
    platform = Platform.create(runtime, EmbeddedHBase.dataDir());
    context = platform.contextFor("banknote");
  }

  @AfterEach
  void tearDown() {
    platform.close();
  }

  /** Runs {@code banknote <args>}: its exit code and what it printed. */
  private String run(int expectedExit, String... args) {
    PrintStream out = System.out;
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
    int exit;
    try {
      exit = new CommandLine(new BanknoteCommand(() -> context)).execute(args);
    } finally {
      System.setOut(out);
    }
    assertThat(exit).as(printed.toString(StandardCharsets.UTF_8)).isEqualTo(expectedExit);
    return printed.toString(StandardCharsets.UTF_8);
  }

  @Test
  void theDayIsPrintedAsATableAndAsCsvAndADeclarationClosesIt() {
    List<Note> notes = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      notes.add(
          new Note(
              String.format("QL%08d", Math.floorMod(run.hashCode(), 1000) * 1000 + i),
              i < 4 ? 100 : 50,
              "CNY",
              null,
              atm,
              DeviceKind.ATM,
              branch,
              i < 4 ? Operation.WITHDRAWAL : Operation.DEPOSIT,
              Instant.parse("2031-09-01T01:00:00Z").plusSeconds(60L * i),
              "T1",
              i == 5 ? Verdict.SUSPECT : Verdict.GENUINE,
              List.of(),
              "atm-" + run + ".fsn",
              i,
              null));
    }
    new BanknoteService(context).store(notes);

    String table = run(0, "settlement", "--branch", branch, "--day", "2031-09-01");
    assertThat(table)
        .contains("Settlement of branch " + branch + " on 2031-09-01 (Asia/Shanghai): open")
        .contains("1 device(s), 6 notes, 1 suspect");
    List<String> lines = table.lines().toList();
    assertThat(lines)
        .anySatisfy(
            l ->
                assertThat(l.split("\\s+"))
                    .containsExactly(
                        atm,
                        "atm",
                        "50",
                        "CNY",
                        "2",
                        "0",
                        "0",
                        "0",
                        "1",
                        "2",
                        "atm-" + run + ".fsn",
                        "(2)"))
        .anySatisfy(
            l ->
                assertThat(l.split("\\s+"))
                    .containsExactly(
                        atm,
                        "atm",
                        "100",
                        "CNY",
                        "0",
                        "4",
                        "0",
                        "0",
                        "0",
                        "4",
                        "atm-" + run + ".fsn",
                        "(4)"))
        .anySatisfy(
            l ->
                assertThat(l.split("\\s+")).containsExactly("total", "2", "4", "0", "0", "1", "6"));

    String csv = run(0, "settlement", "--branch", branch, "--day", "2031-09-01", "--csv");
    assertThat(csv.split("\r\n"))
        .hasSize(3)
        .contains(
            branch + ",2031-09-01,open," + atm + ",atm,CNY,100,0,4,0,0,0,4,atm-" + run + ".fsn=4");

    String declared = run(0, "deliver", "--branch", branch, "--day", "2031-09-01", "--device", atm);
    assertThat(declared).contains("\"recorded\" : true").contains("\"status\" : \"closed\"");
    assertThat(run(0, "settlement", "--branch", branch, "--day", "2031-09-01"))
        .contains("): closed at ");
  }
}
