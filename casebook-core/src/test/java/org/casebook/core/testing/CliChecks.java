package org.casebook.core.testing;

import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/** {@code --help} everywhere: every option and parameter has a real label and a description. */
public final class CliChecks {
  private CliChecks() {}

  /** What is missing in the help of {@code cli} and every subcommand under it (empty: nothing). */
  public static List<String> helpProblems(CommandLine cli) {
    List<String> problems = new ArrayList<>();
    walk(cli, problems);
    return problems;
  }

  private static void walk(CommandLine cli, List<String> problems) {
    CommandSpec spec = cli.getCommandSpec();
    for (OptionSpec o : spec.options()) {
      if (o.usageHelp() || o.versionHelp()) {
        continue;
      }
      check(spec.qualifiedName() + " " + o.longestName(), o, !o.typeInfo().isBoolean(), problems);
    }
    for (PositionalParamSpec p : spec.positionalParameters()) {
      check(spec.qualifiedName() + " " + p.paramLabel(), p, true, problems);
    }
    String usage = cli.getUsageMessage();
    if (usage.contains("<arg") || usage.matches("(?s).*<[a-z][A-Za-z0-9]*>.*")) {
      problems.add(spec.qualifiedName() + ": generated placeholder in help:\n" + usage);
    }
    cli.getSubcommands().values().forEach(sub -> walk(sub, problems));
  }

  private static void check(String where, ArgSpec arg, boolean needsLabel, List<String> problems) {
    String description = String.join(" ", arg.description()).strip();
    if (description.isEmpty()) {
      problems.add(where + ": no description");
    }
    if (needsLabel && arg.paramLabel().startsWith("<")) {
      problems.add(where + ": no paramLabel (help shows " + arg.paramLabel() + ")");
    }
  }
}
