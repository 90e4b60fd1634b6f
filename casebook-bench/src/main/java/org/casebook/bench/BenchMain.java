package org.casebook.bench;

import java.util.List;
import org.casebook.server.Main;

/**
 * {@code casebook} of the benchmark distribution: every command of the service, and {@code bench}.
 */
public final class BenchMain {
  private BenchMain() {}

  public static void main(String[] args) {
    Main.exit(run(args));
  }

  /** Runs one command line and returns its exit code (used by tests too). */
  public static int run(String... args) {
    return Main.run(List.of(BenchCommand::new), args);
  }
}
