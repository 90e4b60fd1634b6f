package org.casebook.banknote.cli;

import java.util.concurrent.Callable;
import org.casebook.banknote.BanknoteService;
import org.casebook.banknote.wire.BanknoteRoutes;
import org.casebook.core.InvalidInputException;
import org.casebook.core.Json;
import org.casebook.core.cli.PageOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/**
 * {@code casebook banknote clones SERIAL} (one serial's impossible readings) or {@code clones
 * --branch B --day D} (the day sweep of a branch).
 */
@Command(
    name = "clones",
    mixinStandardHelpOptions = true,
    description = {
      "Probable clones: readings whose denomination or edition changed, or whose branch is further"
          + " from the reading before than a note travels in the time between.",
      "With SERIAL, that serial's; with --branch and --day, those of the serials read at the"
          + " branch that day (the morning sweep), paged."
    })
final class ClonesCommand implements Callable<Integer> {
  @ParentCommand BanknoteCommand parent;

  @Parameters(
      arity = "0..1",
      paramLabel = "SERIAL",
      description = "A serial number, e.g. XN15115812.")
  String serial;

  @Option(names = "--branch", paramLabel = "BRANCH", description = "The branch to sweep.")
  String branch;

  @Option(
      names = "--day",
      paramLabel = "YYYY-MM-DD",
      description = "The day to sweep, in the bank's zone.")
  String day;

  @Mixin PageOptions page;

  @Override
  public Integer call() {
    BanknoteService service = parent.service();
    if (serial != null) {
      InvalidInputException.check(
          branch == null && day == null, "SERIAL", "give SERIAL or --branch and --day, not both");
      InvalidInputException.check(
          page.request(100).equals(org.casebook.core.page.PageRequest.first(100)),
          "limit",
          "--limit and --cursor page the sweep (--branch, --day), not one serial");
      System.out.println(Json.writePretty(BanknoteRoutes.ClonesPage.of(service.clones(serial))));
      return 0;
    }
    InvalidInputException.check(branch != null, "branch", "give SERIAL, or --branch and --day");
    InvalidInputException.check(day != null, "day", "--day is required with --branch");
    System.out.println(
        Json.writePretty(
            BanknoteRoutes.SweepPage.of(
                service.cloneSweep(
                    branch, BanknoteService.parseDay(day, "day"), page.request(100)))));
    return 0;
  }
}
