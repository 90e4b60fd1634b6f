package org.casebook.server.testsystem;

import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.casebook.core.CasebookSystem;
import org.casebook.core.RunningSystem;
import org.casebook.core.SystemContext;
import org.casebook.core.SystemDescriptor;
import org.casebook.core.SystemHealth;
import org.casebook.core.http.HttpResponse;
import org.casebook.core.http.Route;
import org.casebook.core.http.RouteTable;
import org.casebook.core.net.LineProtocol;
import org.casebook.core.net.LineServer;
import org.casebook.core.net.ListenerSpec;
import org.casebook.core.settings.Setting;
import picocli.CommandLine.Command;

/**
 * A system that exists only in the server's tests: it opens a TCP line listener through the
 * platform (echoing lines back, upper-cased) and counts the lines it served. The server finds it
 * through the test classpath's service file, as it finds the real systems, and never names it.
 */
public final class EchoSystem implements CasebookSystem {
  /** A setting, so the tests see settings reach a system the server does not know. */
  public static final Setting<Boolean> UPPER_CASE =
      Setting.ofBoolean("upper-case", true, "Echo each line upper-cased (else as it came).");

  static final ListenerSpec ECHO =
      new ListenerSpec("echo", "line echo", 0, "echoes each line upper-cased");
  private static final RouteTable<AtomicLong> ROUTES =
      RouteTable.<AtomicLong>builder()
          .get(
              "/api/echo/lines",
              "Lines echoed so far",
              (lines, req) -> HttpResponse.ok(Map.of("lines", lines.get())))
          .build();

  @Override
  public SystemDescriptor descriptor() {
    return new SystemDescriptor(
        "echo",
        "Test system: a TCP line echo",
        List.of(),
        List.of(),
        ROUTES.specs(),
        List.of(ECHO),
        List.of(),
        List.of(UPPER_CASE));
  }

  @Override
  public RunningSystem start(SystemContext context) {
    AtomicLong lines = new AtomicLong();
    boolean upperCase = context.settings().get(UPPER_CASE);
    LineProtocol protocol =
        remote ->
            (line, out) -> {
              if (line.equals("quit")) {
                return false;
              }
              lines.incrementAndGet();
              out.line(upperCase ? line.toUpperCase(java.util.Locale.ROOT) : line);
              return true;
            };
    context.listenLines(ECHO, protocol, LineServer.Limits.defaults());
    return new RunningSystem() {
      @Override
      public List<Route> routes() {
        return ROUTES.bind(lines);
      }

      @Override
      public SystemHealth health() {
        return SystemHealth.up(Map.of("lines", lines.get()));
      }
    };
  }

  @Override
  public Object command(Supplier<SystemContext> context) {
    return new EchoCommand();
  }

  /** An empty CLI group: the test system has nothing to do from the command line. */
  @Command(name = "echo", description = "Test system.")
  static final class EchoCommand {}
}
