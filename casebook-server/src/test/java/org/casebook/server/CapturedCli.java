package org.casebook.server;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.casebook.core.testing.EmbeddedHBase;

/** The CLI run in this JVM on the test's embedded HBase, its output and errors into one buffer. */
final class CapturedCli {
  private CapturedCli() {}

  /** {@code casebook --data <the test's data> args…}; the exit code. */
  static int run(ByteArrayOutputStream out, List<String> args) {
    List<String> full = new ArrayList<>(List.of("--data", EmbeddedHBase.dataDir().toString()));
    full.addAll(args);
    PrintStream oldOut = System.out;
    PrintStream oldErr = System.err;
    PrintStream capture = new PrintStream(out, true, StandardCharsets.UTF_8);
    System.setOut(capture);
    System.setErr(capture);
    try {
      return Main.run(full.toArray(String[]::new));
    } finally {
      System.setOut(oldOut);
      System.setErr(oldErr);
    }
  }
}
