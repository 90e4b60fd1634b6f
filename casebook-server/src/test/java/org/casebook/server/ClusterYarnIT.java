package org.casebook.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.casebook.core.Json;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * Cluster mode for real: a multi-process HDFS + YARN + HBase on loopback (the shared cluster kit's
 * {@code up.sh}, eight JVMs), driven through the same commands a user types, with {@code
 * HADOOP_CONF_DIR}/{@code HBASE_CONF_DIR} pointing at it. Batch jobs must run on YARN (in
 * containers that see only Hadoop's jars, so what Casebook ships is what they get) and give the
 * local answers. Skipped, with a message, where the kit is absent.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
// Beside the module's other tests (see the pom); its own steps one after another, in order.
@Execution(ExecutionMode.CONCURRENT)
class ClusterYarnIT {
  private static final Path KIT =
      Path.of("..", "..", "shared", "tools", "cluster").toAbsolutePath().normalize();
  private static final Path JAR = Path.of("target", "casebook", "casebook.jar").toAbsolutePath();
  private static Path work;
  private static Path clusterDir;
  private static Map<String, String> env;
  private static boolean up;

  /**
   * The archive bulk load on YARN, started while the trails job of the stock {@code hadoop jar}
   * runs: two applications side by side on the one NodeManager, as a shared cluster has them.
   */
  private static CompletableFuture<Run> archiveImport;

  private static Path archiveInput;

  private static JsonNode archiveWritten;

  record Run(int exit, String out, String err, long millis) {}

  @BeforeAll
  static void startCluster() throws Exception {
    Assumptions.assumeTrue(
        Files.isExecutable(KIT.resolve("up.sh")),
        "the multi-process cluster kit (" + KIT + ") is absent: cluster tests skipped");
    work = Files.createDirectories(Path.of("target", "cluster-it").toAbsolutePath());
    clusterDir = work.resolve("cluster");
    // The kit's eight daemons compile with C1 only, as this test's own JVMs: on two cores their
    // C2 compiler threads would take the CPU the test's steps wait for.
    Map<String, String> kitEnv =
        Map.of(
            "CLUSTER_WORK", clusterDir.toString(), "JAVA_TOOL_OPTIONS", "-XX:TieredStopAtLevel=1");
    Run started =
        run(List.of("bash", KIT.resolve("up.sh").toString()), kitEnv, Duration.ofMinutes(8));
    up = true; // down.sh stops whatever did start, also after a failed start
    System.out.println("cluster up in " + started.millis() + " ms");
    assertThat(started.exit()).as("up.sh: " + started.out() + started.err()).isZero();
    env = new HashMap<>();
    env.put("HADOOP_CONF_DIR", clusterDir.resolve("conf").toString());
    env.put("HBASE_CONF_DIR", clusterDir.resolve("conf").toString());
  }

  @AfterAll
  static void stopCluster() throws Exception {
    if (archiveImport != null) {
      // Not under a stopping cluster: its process ends within its own timeout.
      archiveImport.handle((run, failure) -> run).get(7, TimeUnit.MINUTES);
    }
    if (up) {
      run(
          List.of("bash", KIT.resolve("down.sh").toString()),
          Map.of("CLUSTER_WORK", clusterDir.toString()),
          Duration.ofMinutes(3));
    }
  }

  /**
   * The kit's region servers run Hadoop's own codecs: Snappy through snappy-java, no ZSTD without
   * libhadoop. The families that declare ZSTD get Snappy there, as the README tells an operator
   * whose cluster lacks it.
   */
  private static final List<String> CODECS =
      List.of("--hbase", "casebook.compression.substitute=ZSTD:SNAPPY");

  /**
   * Task and application-master JVMs that start fast: each task here reads a few MB, so C2
   * compilation and a parallel collector cost two cores more than they save.
   */
  private static final String SHORT_TASK_OPTS = "-Xmx768m -XX:TieredStopAtLevel=1 -XX:+UseSerialGC";

  /** The commands' own JVMs: short lived, so C1 only (see {@link #SHORT_TASK_OPTS}). */
  private static final String C1_ONLY = "-XX:TieredStopAtLevel=1";

  private static final List<String> TASK_JVMS =
      List.of(
          "--hbase",
          "mapreduce.map.java.opts=" + SHORT_TASK_OPTS,
          "--hbase",
          "mapreduce.reduce.java.opts=" + SHORT_TASK_OPTS,
          "--hbase",
          "yarn.app.mapreduce.am.command-opts=" + SHORT_TASK_OPTS,
          // Jobs of a few maps and at most one reduce run inside their application master.
          "--hbase",
          "mapreduce.job.ubertask.enable=true");

  private static Run casebook(Duration timeout, String... args) throws Exception {
    List<String> cmd = new ArrayList<>(List.of(java(), "-Xmx1g", C1_ONLY, "-jar", JAR.toString()));
    // First: a repeated --hbase after the subcommand would start the map afresh.
    cmd.addAll(CODECS);
    cmd.addAll(TASK_JVMS);
    cmd.addAll(List.of(args));
    return run(cmd, env, timeout);
  }

  /** {@link #casebook} on another thread: a load beside the one this test runs. */
  private static CompletableFuture<Run> casebookAsync(Duration timeout, String... args) {
    return CompletableFuture.supplyAsync(
        () -> {
          try {
            return casebook(timeout, args);
          } catch (Exception e) {
            throw new CompletionException(e);
          }
        });
  }

  private static String java() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  private static Run run(List<String> cmd, Map<String, String> extraEnv, Duration timeout)
      throws Exception {
    Path out = Files.createTempFile(work, "out", ".txt");
    Path err = Files.createTempFile(work, "err", ".txt");
    ProcessBuilder pb =
        new ProcessBuilder(cmd)
            .directory(work.toFile())
            .redirectOutput(out.toFile())
            .redirectError(err.toFile());
    pb.environment().putAll(extraEnv);
    long t0 = System.nanoTime();
    Process p = pb.start();
    if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      p.destroyForcibly();
      throw new AssertionError(
          cmd + " did not finish within " + timeout + ": " + Files.readString(err));
    }
    return new Run(
        p.exitValue(),
        Files.readString(out),
        Files.readString(err),
        (System.nanoTime() - t0) / 1_000_000);
  }

  private static List<String> activeUsers(String json) throws IOException {
    List<String> users = new ArrayList<>();
    Json.mapper().readTree(json).get("activeUsers").forEach(u -> users.add(u.asText()));
    return users;
  }

  /** A top-level number of a pretty-printed JSON report, or -1 when absent. */
  private static long jsonNumber(String json, String field) {
    java.util.regex.Matcher m =
        java.util.regex.Pattern.compile("\"" + field + "\"\\s*:\\s*(\\d+)").matcher(json);
    return m.find() ? Long.parseLong(m.group(1)) : -1;
  }

  @Test
  @Order(1)
  @Execution(ExecutionMode.SAME_THREAD)
  void trailsLoadsByPutsAndByABulkLoadOnYarnWithTheSameCells() throws Exception {
    Path logs = work.resolve("logs.jsonl");
    assertThat(
            casebook(
                    Duration.ofMinutes(2),
                    "trails",
                    "generate",
                    "--out",
                    logs.toString(),
                    "--users",
                    "1000",
                    "--days",
                    "3",
                    "--records",
                    "10000",
                    "--first-day",
                    "2026-09-01")
                .exit())
        .isZero();
    // The Puts and, side by side, the same log as a bulk load: a YARN job writes HFiles on HDFS
    // that the cluster's HBase adopts; the same cells as the Puts, so whichever lands last, the
    // answers below are unchanged.
    CompletableFuture<Run> puts =
        casebookAsync(Duration.ofMinutes(5), "trails", "ingest", logs.toString());
    Run bulk = casebook(Duration.ofMinutes(6), "trails", "ingest", logs.toString(), "--bulk");
    Run ingest = puts.get(5, TimeUnit.MINUTES);
    assertThat(ingest.exit()).as(ingest.err()).isZero();
    assertThat(ingest.err()).contains("cluster (ZooKeeper 127.0.0.1:29181)");
    assertThat(bulk.exit()).as(bulk.err()).isZero();
    assertThat(bulk.err())
        .containsPattern("MapReduce on YARN at 127\\.0\\.0\\.1:29032, application_\\d+_\\d+");
    for (String field : new String[] {"lines", "accepted", "rejected", "cells"}) {
      assertThat(jsonNumber(bulk.out(), field))
          .as(field)
          .isEqualTo(jsonNumber(ingest.out(), field))
          .isNotNegative();
    }
    assertThat(jsonNumber(bulk.out(), "accepted")).isPositive();
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < 1000; i++) {
      ids.add(Integer.toString(10_000_000 + i));
    }
    Path users = Files.write(work.resolve("users.txt"), ids);
    // The seed-000 task on YARN runs in the next test, through a stock `hadoop jar`, against the
    // same answer computed directly; the bulk load above is casebook's own YARN submission.
    assertThat(users).exists();
  }

  @Test
  @Order(2)
  @Execution(ExecutionMode.SAME_THREAD)
  void theHadoopJarCommandRunsTheJobOnAStockCluster() throws Exception {
    startArchiveImport();
    // What `HADOOP_CLASSPATH=$(hbase mapredcp):<casebook-core>:<jackson-datatype-jdk8> hadoop jar
    // casebook-trails.jar org.casebook.trails.batch.ActiveUsersJob …` runs: RunJar on Hadoop's and
    // HBase's
    // classpath plus the two jars named in the README.
    Path lib = JAR.getParent().resolve("lib");
    String cp =
        String.join(
            File.pathSeparator,
            clusterDir.resolve("conf").toString(),
            Files.readString(clusterDir.resolve("hadoop.cp")).strip(),
            Files.readString(clusterDir.resolve("hbase.cp")).strip(),
            jar(lib, "casebook-core-"),
            jar(lib, "jackson-datatype-jdk8-"));
    Run run =
        run(
            List.of(
                java(),
                C1_ONLY,
                "--add-opens=java.base/java.lang=ALL-UNNAMED",
                "--add-opens=java.base/java.nio=ALL-UNNAMED",
                "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
                "-Dorg.apache.hbase.thirdparty.io.netty.tryReflectionSetAccessible=true",
                "-cp",
                cp,
                "org.apache.hadoop.util.RunJar",
                jar(lib, "casebook-trails-"),
                "org.casebook.trails.batch.ActiveUsersJob",
                "-Dmapreduce.map.java.opts=" + SHORT_TASK_OPTS,
                "-Dmapreduce.reduce.java.opts=" + SHORT_TASK_OPTS,
                "-Dyarn.app.mapreduce.am.command-opts=" + SHORT_TASK_OPTS,
                "-Dmapreduce.job.ubertask.enable=true",
                work.resolve("users.txt").toUri().toString(),
                "2026-09-01",
                "2026-09-03",
                "/tmp/casebook-it-active-" + System.nanoTime()),
            Map.of(),
            Duration.ofMinutes(6));
    assertThat(run.exit()).as(run.err()).isZero();
    assertThat(run.err())
        .containsPattern("MapReduce on YARN at 127\\.0\\.0\\.1:29032, application_\\d+_\\d+");
    Run direct =
        casebook(
            Duration.ofMinutes(3),
            "trails",
            "active",
            "--users-file",
            work.resolve("users.txt").toString(),
            "--from",
            "2026-09-01",
            "--to",
            "2026-09-03");
    assertThat(direct.exit()).as(direct.err()).isZero();
    assertThat(activeUsers(direct.out())).isNotEmpty();
    assertThat(run.out()).contains("users 1000, active " + activeUsers(direct.out()).size() + ",");
  }

  private static String jar(Path lib, String prefix) throws IOException {
    try (Stream<Path> s = Files.list(lib)) {
      return s.filter(p -> p.getFileName().toString().startsWith(prefix))
          .findFirst()
          .orElseThrow()
          .toString();
    }
  }

  private static synchronized void startArchiveImport() throws Exception {
    if (archiveImport != null) {
      return;
    }
    archiveInput = work.resolve("archive-in");
    Run generated =
        casebook(
            Duration.ofMinutes(2),
            "archive",
            "generate",
            "--out",
            archiveInput.toString(),
            "--files",
            "4",
            "--users-per-file",
            "50");
    assertThat(generated.exit()).as(generated.err()).isZero();
    archiveWritten = Json.mapper().readTree(generated.out());
    archiveImport =
        casebookAsync(
            Duration.ofMinutes(6),
            "archive",
            "import",
            archiveInput.toString(),
            "--mode",
            "bulkload");
  }

  @Test
  @Order(3)
  @Execution(ExecutionMode.SAME_THREAD)
  void theArchiveBulkLoadRunsOnYarnWithTheLocalCounts() throws Exception {
    startArchiveImport();
    Run imported = archiveImport.get(7, TimeUnit.MINUTES);
    assertThat(imported.exit()).as(imported.err()).isZero();
    assertThat(imported.err())
        .containsPattern("MapReduce on YARN at 127\\.0\\.0\\.1:29032, application_\\d+_\\d+");
    JsonNode report = Json.mapper().readTree(imported.out());
    assertThat(report.get("users").asLong()).isEqualTo(archiveWritten.get("users").asLong());
    assertThat(report.get("statuses").asLong()).isEqualTo(archiveWritten.get("statuses").asLong());
    assertThat(report.get("filesSkipped").asInt()).isZero();
    System.out.println(
        "archive bulk load on YARN: "
            + imported.millis()
            + " ms; "
            + imported
                .err()
                .lines()
                .filter(l -> l.contains("application_"))
                .findFirst()
                .orElse(""));
  }

  @Test
  @Order(4)
  @Execution(ExecutionMode.SAME_THREAD)
  void aBackupIsExportedToHdfsByYarnApplicationsSideBySide() throws Exception {
    String name = "yarn-" + Long.toString(System.currentTimeMillis(), 36);
    Run created =
        casebook(Duration.ofMinutes(2), "backup", "create", "--system", "trails", "--online", name);
    assertThat(created.exit()).as(created.err()).isZero();
    assertThat(created.out()).containsPattern(name + " .* \\d+ table\\(s\\) of trails");
    String target = "hdfs://127.0.0.1:29000/casebook-backups";
    Run exported =
        casebook(Duration.ofMinutes(6), "backup", "export", name, "--to", target, "--mappers", "1");
    assertThat(exported.exit()).as(exported.err()).isZero();
    assertThat(exported.err())
        .containsPattern(
            // The trails tables and its behaviour registry.
            "exporting 4 table\\(s\\) to "
                + target
                + ": MapReduce on YARN at 127\\.0\\.0\\.1:29032, one job per table, side by side")
        .contains("exported 4/4");
    assertThat(exported.out()).contains("exported " + name + ": ");
    Run local =
        casebook(
            Duration.ofMinutes(1),
            "backup",
            "export",
            name,
            "--to",
            work.resolve("backups").toString());
    assertThat(local.exit()).as("a local directory is refused with YARN").isEqualTo(2);
    System.out.println("backup export to HDFS on YARN: " + exported.millis() + " ms");
  }

  @Test
  @Order(5)
  @Execution(ExecutionMode.SAME_THREAD)
  void anUnreachableResourceManagerFailsWithinTheBound() throws Exception {
    Run run =
        casebook(
            Duration.ofMinutes(2),
            "--hbase",
            "yarn.resourcemanager.address=127.0.0.1:1",
            "--hbase",
            "casebook.yarn.connect.timeout.ms=5000",
            "trails",
            "active",
            "--users-file",
            work.resolve("users.txt").toString(),
            "--from",
            "2026-09-01",
            "--to",
            "2026-09-03",
            "--mapreduce");
    assertThat(run.exit()).isEqualTo(8);
    assertThat(run.err())
        .contains("casebook: batch job failed: MapReduce on YARN at 127.0.0.1:1")
        .contains("within 5000 ms");
    assertThat(run.millis())
        .as("bounded by the timeout, not Hadoop's 15-minute retries")
        .isLessThan(60_000);
  }

  @Test
  @Order(6)
  @Execution(ExecutionMode.SAME_THREAD)
  void theServerAnswersATrailsQueryFromTheCluster() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    ProcessBuilder pb =
        new ProcessBuilder(
                java(),
                "-Xmx1g",
                C1_ONLY,
                "-jar",
                JAR.toString(),
                CODECS.get(0),
                CODECS.get(1),
                "serve",
                "--port",
                Integer.toString(port))
            .directory(work.toFile())
            .redirectErrorStream(true)
            .redirectOutput(work.resolve("serve.log").toFile());
    pb.environment().putAll(env);
    Process serve = pb.start();
    HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    try {
      JsonNode health = null;
      long deadline = System.currentTimeMillis() + 120_000;
      while (health == null && System.currentTimeMillis() < deadline) {
        assertThat(serve.isAlive()).as("serve exited; see target/cluster-it/serve.log").isTrue();
        try {
          HttpResponse<String> r =
              client.send(
                  HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/api/health"))
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
          if (r.statusCode() == 200) {
            health = Json.mapper().readTree(r.body());
          }
        } catch (IOException notYet) {
          Thread.sleep(500);
        }
      }
      assertThat(health).as("healthy within 120 s").isNotNull();
      assertThat(health.get("hbase").get("mode").asText()).isEqualTo("cluster");
      HttpResponse<String> trail =
          client.send(
              HttpRequest.newBuilder(
                      URI.create(
                          "http://127.0.0.1:"
                              + port
                              + "/api/trails/10000000?from=2026-09-01&to=2026-09-03"))
                  .build(),
              HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
      assertThat(trail.statusCode()).isEqualTo(200);
      TreeSet<String> types =
          new TreeSet<>(
              Json.mapper().readTree(trail.body()).get("events").findValuesAsText("type"));
      assertThat(types).isNotEmpty();
    } finally {
      serve.destroy();
      if (!serve.waitFor(60, TimeUnit.SECONDS)) {
        serve.destroyForcibly();
      }
    }
  }
}
