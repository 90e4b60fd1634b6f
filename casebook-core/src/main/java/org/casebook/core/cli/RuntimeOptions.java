package org.casebook.core.cli;

import java.nio.file.Path;
import java.util.Optional;
import org.casebook.core.RuntimeSettings;
import org.casebook.core.settings.SettingSources;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

/** The options every command that touches HBase shares; inherited by all subcommands. */
public final class RuntimeOptions {
  @Option(
      names = "--data",
      paramLabel = "DIR",
      scope = ScopeType.INHERIT,
      description = "Data directory of embedded HBase (default: ${DEFAULT-VALUE}).",
      defaultValue = "data")
  Path dataDir;

  @Option(
      names = "--zk",
      paramLabel = "HOST:PORT[,…]",
      scope = ScopeType.INHERIT,
      description =
          "ZooKeeper quorum of a real HBase cluster (else HBASE_CONF_DIR, else embedded).")
  String zkQuorum;

  @Option(
      names = "--conf",
      paramLabel = "DIR",
      scope = ScopeType.INHERIT,
      description =
          "Directory of a cluster's site files (hbase-, core-, hdfs-, yarn-, mapred-site.xml);"
              + " default: HBASE_CONF_DIR and HADOOP_CONF_DIR.")
  Path confDir;

  @Option(
      names = "--hbase",
      paramLabel = "KEY=VALUE",
      scope = ScopeType.INHERIT,
      description = "HBase/Hadoop configuration override, repeatable (e.g. hbase.wal.hsync=true).")
  java.util.Map<String, String> overrides = new java.util.LinkedHashMap<>();

  @Option(
      names = "--settings",
      paramLabel = "FILE",
      scope = ScopeType.INHERIT,
      description =
          "Settings file of SYSTEM.NAME=VALUE lines (default: casebook.properties in the data"
              + " directory, when there is one). ./casebook config lists every setting.")
  Path settingsFile;

  @Option(
      names = "--set",
      paramLabel = "KEY=VALUE",
      scope = ScopeType.INHERIT,
      description =
          "A system's setting, repeatable (e.g. tsdb.max-tags=16); wins over CASEBOOK_SYSTEM_NAME"
              + " and the settings file.")
  java.util.Map<String, String> settingValues = new java.util.LinkedHashMap<>();

  /** The repeatable global options, whose values accumulate over the whole command line. */
  private static final java.util.Set<String> REPEATABLE = java.util.Set.of("--hbase", "--set");

  /**
   * {@code args} with every {@code --hbase} and {@code --set} (and its value) moved to the front,
   * in their order. Picocli gives each subcommand its own copy of an inherited option and starts a
   * repeatable one afresh at its first use on a subcommand, so {@code --hbase a=1 trails … --hbase
   * b=2} would otherwise keep only {@code b=2}. Nothing after {@code --} is moved.
   */
  public static String[] hoistRepeatable(String... args) {
    java.util.List<String> front = new java.util.ArrayList<>();
    java.util.List<String> rest = new java.util.ArrayList<>();
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      if (a.equals("--")) {
        rest.addAll(java.util.Arrays.asList(args).subList(i, args.length));
        break;
      }
      String name = a.contains("=") ? a.substring(0, a.indexOf('=')) : a;
      if (REPEATABLE.contains(name) && (a.contains("=") || i + 1 < args.length)) {
        front.add(a);
        if (!a.contains("=")) {
          front.add(args[++i]);
        }
      } else {
        rest.add(a);
      }
    }
    front.addAll(rest);
    return front.toArray(new String[0]);
  }

  public Path dataDir() {
    return dataDir;
  }

  /**
   * Where systems' settings come from: the settings file (given, or the data directory's {@code
   * casebook.properties} when present), the process environment, and {@code --set}.
   */
  public SettingSources settingSources() {
    boolean given = settingsFile != null;
    Path file = given ? settingsFile : dataDir.resolve("casebook.properties");
    return SettingSources.of(Optional.of(file), given, System.getenv(), settingValues);
  }

  /**
   * The options of this kind given on the command line ({@code --data} only when not the default),
   * for a command that cannot honour them and must refuse them.
   */
  public java.util.List<String> given() {
    java.util.List<String> out = new java.util.ArrayList<>();
    if (!dataDir.equals(Path.of("data"))) {
      out.add("--data");
    }
    if (zkQuorum != null) {
      out.add("--zk");
    }
    if (confDir != null) {
      out.add("--conf");
    }
    if (!overrides.isEmpty()) {
      out.add("--hbase");
    }
    if (settingsFile != null) {
      out.add("--settings");
    }
    if (!settingValues.isEmpty()) {
      out.add("--set");
    }
    return out;
  }

  /** One effective runtime option, for {@code casebook config}. */
  public record Effective(String key, String value, String source) {}

  /** How HBase and Hadoop are reached, each with where it came from. */
  public java.util.List<Effective> effective() {
    java.util.List<Effective> out = new java.util.ArrayList<>();
    RuntimeSettings r = settings();
    boolean defaultData = dataDir.equals(Path.of("data"));
    out.add(
        new Effective(
            "data", dataDir.toAbsolutePath().toString(), defaultData ? "default" : "--data"));
    if (zkQuorum != null) {
      out.add(new Effective("zk", zkQuorum, "--zk"));
    }
    r.confDir()
        .ifPresent(
            d ->
                out.add(
                    new Effective(
                        "hbase-conf",
                        d.toString(),
                        confDir != null ? "--conf" : "HBASE_CONF_DIR")));
    r.hadoopConfDir()
        .ifPresent(
            d ->
                out.add(
                    new Effective(
                        "hadoop-conf",
                        d.toString(),
                        confDir != null ? "--conf" : "HADOOP_CONF_DIR")));
    out.add(
        new Effective(
            "hbase",
            zkQuorum == null && r.confDir().isEmpty() ? "embedded" : "cluster",
            zkQuorum != null
                ? "--zk"
                : r.confDir().isPresent()
                    ? "hbase-site.xml"
                    : "default (no --zk, --conf or HBASE_CONF_DIR)"));
    overrides.forEach((k, v) -> out.add(new Effective(k, v, "--hbase")));
    return out;
  }

  public RuntimeSettings settings() {
    return RuntimeSettings.fromEnvironment(dataDir, zkQuorum, confDir).withOverrides(overrides);
  }
}
