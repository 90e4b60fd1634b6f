package org.casebook.server;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.casebook.core.CasebookSystem;
import org.casebook.core.Json;
import org.casebook.core.SystemDescriptor;
import org.casebook.core.cli.RuntimeOptions;
import org.casebook.core.settings.SettingSources;
import org.casebook.core.settings.SettingValue;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code casebook config}: every effective setting — how HBase is reached, then each system's
 * declared settings — with where its value came from. Needs no HBase.
 */
@Command(
    name = "config",
    mixinStandardHelpOptions = true,
    description = {
      "Print every effective setting with its source (no HBase needed).",
      "A system's setting is its default, overridden by the settings file (--settings, else"
          + " casebook.properties in the data directory), by CASEBOOK_SYSTEM_NAME, by"
          + " --set SYSTEM.NAME=VALUE."
    })
final class ConfigCommand implements Callable<Integer> {
  @Option(names = "--json", description = "Print JSON instead of a table.")
  boolean json;

  private final List<CasebookSystem> systems;
  private final CliContext context;

  ConfigCommand(List<CasebookSystem> systems, CliContext context) {
    this.systems = systems;
    this.context = context;
  }

  /** One line of the listing. */
  record Line(
      String scope,
      String key,
      String value,
      String source,
      String origin,
      String type,
      String help) {}

  @Override
  public Integer call() {
    SettingSources sources = context.settingSources();
    List<Line> lines = new ArrayList<>();
    RuntimeOptions options = context.options();
    for (RuntimeOptions.Effective e : options.effective()) {
      lines.add(new Line("runtime", e.key(), e.value(), e.source(), "", "", ""));
    }
    for (CasebookSystem s : systems) {
      SystemDescriptor d = s.descriptor();
      for (SettingValue v : sources.resolve(d.name(), d.settings()).values()) {
        lines.add(
            new Line(
                d.name(),
                v.key(),
                v.text(),
                v.source().label(),
                v.origin(),
                v.setting().type(),
                v.setting().help()));
      }
    }
    String file = sources.file().map(p -> p.toAbsolutePath().toString()).orElse("none read");
    if (json) {
      System.out.println(Json.writePretty(Map.of("settingsFile", file, "settings", lines)));
      return 0;
    }
    System.out.println(
        "Settings file: " + file + ". A later source wins: default < file < environment < --set.");
    print(lines);
    return 0;
  }

  private static void print(List<Line> lines) {
    int key = "KEY".length();
    int value = "VALUE".length();
    int source = "SOURCE".length();
    for (Line l : lines) {
      key = Math.max(key, l.key().length());
      value = Math.max(value, Math.min(40, l.value().length()));
      source = Math.max(source, where(l).length());
    }
    String format = "%-" + key + "s  %-" + value + "s  %-" + source + "s  %s%n";
    String scope = null;
    for (Line l : lines) {
      if (!l.scope().equals(scope)) {
        scope = l.scope();
        System.out.println();
        System.out.printf(
            format, "KEY", "VALUE", "SOURCE", scope.equals("runtime") ? "" : "TYPE — HELP");
      }
      System.out.printf(
          format,
          l.key(),
          l.value(),
          where(l),
          l.type().isEmpty() ? "" : l.type() + " — " + l.help());
    }
  }

  private static String where(Line l) {
    return l.origin().isEmpty() || l.origin().startsWith("--set")
        ? l.source()
        : l.source() + " " + l.origin();
  }
}
