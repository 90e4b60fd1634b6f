package org.casebook.core.cli;

import java.lang.reflect.AnnotatedElement;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParseResult;

/** What {@link ClientCommand} means on a command tree. */
public final class ClientCommands {
  /** The options of {@link RuntimeOptions}, which every command inherits. */
  static final Set<String> RUNTIME_OPTIONS =
      Set.of("--data", "--zk", "--conf", "--hbase", "--settings", "--set");

  private ClientCommands() {}

  /** Takes the inherited runtime options off every {@link ClientCommand} under {@code root}. */
  public static void leaveOutRuntimeOptions(CommandLine root) {
    if (isClient(root.getCommandSpec())) {
      CommandSpec spec = root.getCommandSpec();
      for (OptionSpec option : new ArrayList<>(spec.options())) {
        if (RUNTIME_OPTIONS.contains(option.longestName())) {
          spec.remove(option);
        }
      }
    }
    root.getSubcommands().values().forEach(ClientCommands::leaveOutRuntimeOptions);
  }

  /**
   * Refuses a client command's run when a runtime option was given on a command above it (where
   * {@code casebook --zk … banknote agent} would take it and the agent would ignore it).
   */
  public static void refuseRuntimeOptions(ParseResult parsed) {
    List<ParseResult> levels = new ArrayList<>();
    for (ParseResult p = parsed; p != null; p = p.subcommand()) {
      levels.add(p);
    }
    ParseResult last = levels.get(levels.size() - 1);
    if (!isClient(last.commandSpec())) {
      return;
    }
    for (ParseResult level : levels) {
      for (OptionSpec option : level.matchedOptions()) {
        if (RUNTIME_OPTIONS.contains(option.longestName())) {
          throw new CommandLine.ParameterException(
              last.commandSpec().commandLine(),
              option.longestName()
                  + " does not apply to '"
                  + last.commandSpec().qualifiedName()
                  + "': it opens no HBase of its own and only talks to a server");
        }
      }
    }
  }

  private static boolean isClient(CommandSpec spec) {
    return spec.userObject() instanceof AnnotatedElement method
            && method.isAnnotationPresent(ClientCommand.class)
        || spec.userObject() != null
            && spec.userObject().getClass().isAnnotationPresent(ClientCommand.class);
  }
}
