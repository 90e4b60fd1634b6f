package org.casebook.server;

import java.io.PrintWriter;
import java.util.List;
import java.util.function.Function;
import org.casebook.core.CasebookSystem;
import org.casebook.core.ErrorKind;
import org.casebook.core.InvalidInputException;
import org.casebook.core.cli.ClientCommands;
import org.casebook.core.cli.RuntimeOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code casebook}: the command line. Exit codes come from {@link ErrorKind}: 0 ok, 1 internal
 * error, 2 bad input, 3 not found, 4 conflict, 5 storage unavailable, 6 interrupted, 7 local file
 * error, 8 batch job failed.
 */
@Command(
    name = "casebook",
    mixinStandardHelpOptions = true,
    version = "Casebook " + Main.VERSION + " on HBase 2.6.1",
    description =
        "HBase application systems from published case studies.%n"
            + "Runs HBase embedded under --data unless --zk or HBASE_CONF_DIR names a cluster.",
    subcommandsRepeatable = false)
public final class Main implements Runnable {
  /** The release, as {@code --version} and the API description give it. */
  static final String VERSION = "0.1.0";

  static {
    // Must be set before any HBase class loads netty (HBase's launch scripts set it on JDK 11+).
    System.setProperty("org.apache.hbase.thirdparty.io.netty.tryReflectionSetAccessible", "true");
    // Our shutdown hook logs while HBase stops; Log4j must not shut itself down first.
    System.setProperty("log4j2.shutdownHookEnabled", "false");
  }

  private static final Logger LOG = LoggerFactory.getLogger(Main.class);

  @Mixin RuntimeOptions runtimeOptions;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  public static void main(String[] args) {
    exit(run(args));
  }

  /** Ends the process with {@code code} once the logs are flushed. */
  public static void exit(int code) {
    org.apache.logging.log4j.LogManager.shutdown();
    // HBase and Hadoop leave non-daemon threads behind; the exit code is what matters now.
    System.exit(code);
  }

  /** Runs one command line and returns its exit code (used by tests too). */
  public static int run(String... args) {
    return run(List.of(), args);
  }

  /**
   * Runs one command line with the service's commands and {@code extensions} (a distribution's own
   * commands, such as the benchmarks' {@code bench}: each makes a picocli command object from the
   * session) and returns its exit code.
   */
  public static int run(List<Function<Session, Object>> extensions, String... args) {
    Main main = new Main();
    // Parsing the annotations injects the --data/--zk/--hbase mixin the context reads.
    CommandLine cli = new CommandLine(main);
    List<CasebookSystem> systems = Systems.load();
    try (CliContext context = new CliContext(main.runtimeOptions, systems)) {
      withCommands(cli, systems, context);
      for (Function<Session, Object> extension : extensions) {
        cli.addSubcommand(extension.apply(context));
      }
      ClientCommands.leaveOutRuntimeOptions(cli);
      return cli.execute(org.casebook.core.cli.RuntimeOptions.hoistRepeatable(args));
    }
  }

  /** The whole command tree: built-in commands and every system's group, on {@code cli}. */
  static CommandLine withCommands(
      CommandLine cli, List<CasebookSystem> systems, CliContext context) {
    cli.addSubcommand("serve", new ServeCommand(systems, context));
    ServeCommand.addListenerOptions(cli.getSubcommands().get("serve"), systems);
    cli.addSubcommand("schema", new SchemaCommand(systems, context));
    cli.addSubcommand("config", new ConfigCommand(systems, context));
    cli.addSubcommand("backup", new BackupCommand(systems, context));
    cli.addSubcommand("access", new AccessCommand());
    cli.addSubcommand("hotspot", new HotspotCommand(context));
    cli.addSubcommand("chaos", new ChaosCommand(context));
    for (CasebookSystem system : systems) {
      cli.addSubcommand(system.descriptor().name(), system.command(context.contextOf(system)));
    }
    ClientCommands.leaveOutRuntimeOptions(cli);
    cli.setExecutionStrategy(
        parsed -> {
          ClientCommands.refuseRuntimeOptions(parsed);
          return new CommandLine.RunLast().execute(parsed);
        });
    cli.setExecutionExceptionHandler(
        (ex, commandLine, parseResult) -> report(ex, commandLine.getErr()));
    cli.setParameterExceptionHandler(
        (ex, args2) -> {
          PrintWriter err = ex.getCommandLine().getErr();
          err.println("casebook: " + ex.getMessage());
          if (!CommandLine.UnmatchedArgumentException.printSuggestions(ex, err)) {
            err.println(
                "Try '" + ex.getCommandLine().getCommandSpec().qualifiedName() + " --help'.");
          }
          return 2;
        });
    return cli;
  }

  /**
   * Prints the error as the CLI shows it and returns its exit code (the {@link ErrorKind} table).
   */
  static int report(Exception ex, PrintWriter err) {
    ErrorKind kind = ErrorKind.of(ex);
    if (ex instanceof InvalidInputException iie) {
      err.println("casebook: invalid " + iie.field() + ": " + iie.getMessage());
    } else if (kind == ErrorKind.INTERNAL) {
      LOG.error("internal error", ex);
      err.println("casebook: internal error: " + ex);
    } else {
      err.println("casebook: " + kind.label() + ": " + ex.getMessage());
    }
    return kind.exitCode();
  }
}
