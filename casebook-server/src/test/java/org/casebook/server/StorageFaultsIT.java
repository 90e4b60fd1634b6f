package org.casebook.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.client.Admin;
import org.casebook.core.HBaseRuntime;
import org.casebook.core.Json;
import org.casebook.core.RuntimeSettings;
import org.casebook.core.testing.EmbeddedHBase;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The packaged server on a small disk of its own (a tmpfs the test mounts; skipped where it cannot
 * mount one): a feed storm brings the free space under the floor, and then writes are refused with
 * 507 and a JSON body naming the disk (telnet {@code put}: an error line), reads go on, health says
 * so, and every acknowledged post reads back; once space is freed, writes are taken again without a
 * restart; SIGTERM stops the server in time.
 */
class StorageFaultsIT {
  private static final long MIB = 1L << 20;
  private static final long FLOOR = 96 * MIB;
  private static final long MARGIN = 3 * MIB;
  private static final String CONTENT = "x".repeat(1_900);

  @Test
  void writesAreRefusedWhileTheDiskIsBelowItsFloorAndTakenAgainOnceSpaceIsFreed() throws Exception {
    Path jar = Path.of("target", "casebook", "casebook.jar");
    assertThat(jar).exists();
    Path disk = EmbeddedHBase.scratchDir("full-disk").resolve("disk");
    Files.createDirectories(disk);
    mountSmallDisk(disk);
    try {
      run(jar, disk);
    } finally {
      exec(List.of("umount", "-l", disk.toString()));
    }
  }

  private void run(Path jar, Path disk) throws Exception {
    Path data = disk.resolve("data");
    Path ballast = disk.resolve("ballast");
    int port = PackagedServer.freePort();
    int telnet = PackagedServer.freePort();
    String[] args = {
      "--tsdb-port", Integer.toString(telnet), "--hbase", "casebook.min-free-disk=" + FLOOR
    };
    Set<String> acknowledged = new HashSet<>();
    Process server = PackagedServer.start(jar, data, port, "../full-disk.log", args);
    try {
      JsonNode health = PackagedServer.awaitHealth(server, port, "full-disk/full-disk.log");
      assertThat(health.get("disk").get("writesRefused").asBoolean()).isFalse();
      assertThat(health.get("disk").get("minFreeBytes").asLong()).isEqualTo(FLOOR);

      // Leave a few MiB above the floor, then post until the writes are refused.
      fill(ballast, Files.getFileStore(disk).getUsableSpace() - FLOOR - MARGIN);
      HttpResponse<String> refused = null;
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
      while (refused == null && System.nanoTime() < deadline) {
        HttpResponse<String> r = post(port);
        if (r.statusCode() == 201) {
          acknowledged.add(Json.mapper().readTree(r.body()).get("id").asText());
        } else {
          refused = r;
        }
      }
      assertThat(refused).as("no write refused within 90 s").isNotNull();
      assertThat(acknowledged).as("posts taken before the floor").isNotEmpty();
      assertThat(refused.statusCode()).as(refused.body()).isEqualTo(507);
      assertThat(refused.headers().firstValue("Retry-After")).isPresent();
      JsonNode error = Json.mapper().readTree(refused.body());
      assertThat(error.get("kind").asText()).isEqualTo("insufficient_storage");
      assertThat(error.get("error").asText())
          .contains(data.toString())
          .contains("casebook.min-free-disk");
      assertThat(telnetPut(telnet)).startsWith("put: refused: the disk holding");

      // Reads go on, and health says why writes do not.
      assertThat(postsOf(port)).isEqualTo(acknowledged);
      JsonNode low = health(port);
      assertThat(low.get("status").asText()).isEqualTo("degraded");
      assertThat(low.get("disk").get("writesRefused").asBoolean()).isTrue();

      // Space freed: writes are taken again, without a restart.
      Files.delete(ballast);
      HttpResponse<String> again = null;
      deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (System.nanoTime() < deadline) {
        again = post(port);
        if (again.statusCode() == 201) {
          acknowledged.add(Json.mapper().readTree(again.body()).get("id").asText());
          break;
        }
        Thread.sleep(100);
      }
      assertThat(again.statusCode()).as(again.body()).isEqualTo(201);
      assertThat(telnetPut(telnet)).isEmpty();
      assertThat(health(port).get("disk").get("writesRefused").asBoolean()).isFalse();

      // HBase stops serving: the server must not go on answering nothing; it exits, non-zero.
      stopRegionServer(data);
      assertThat(server.waitFor(90, TimeUnit.SECONDS))
          .as("the server exits by itself after its region server stopped")
          .isTrue();
      assertThat(server.exitValue()).isEqualTo(5);
      assertThat(Files.readString(data.resolveSibling("../full-disk.log")))
          .contains("HBase stopped serving: the embedded region server stopped")
          .contains("every acknowledged write comes back");
    } finally {
      if (server.isAlive()) {
        PackagedServer.stop(server);
      }
    }

    Process second = PackagedServer.start(jar, data, port, "../full-disk.log", args);
    try {
      PackagedServer.awaitHealth(second, port, "full-disk/full-disk.log");
      assertThat(postsOf(port)).isEqualTo(acknowledged);
    } finally {
      // Fails when the server does not stop within 60 s of SIGTERM.
      PackagedServer.stop(second);
    }
  }

  /** Asks the server's embedded region server to stop, as an operator's Admin call would. */
  private static void stopRegionServer(Path data) throws Exception {
    try (HBaseRuntime attached = HBaseRuntime.start(RuntimeSettings.embedded(data));
        Admin admin = attached.connection().getAdmin()) {
      assertThat(attached.attached()).isTrue();
      for (ServerName rs : admin.getRegionServers()) {
        admin.stopRegionServer(rs.getAddress().toString());
      }
    }
  }

  private static void mountSmallDisk(Path dir) throws Exception {
    Assumptions.assumeTrue(
        System.getProperty("os.name").startsWith("Linux"), "needs Linux to mount a tmpfs");
    String out = exec(List.of("mount", "-t", "tmpfs", "-o", "size=480m", "tmpfs", dir.toString()));
    Assumptions.assumeTrue(
        out == null, () -> "skipped: cannot mount a small disk here (needs root): " + out);
  }

  /** Runs a command; null when it succeeded, else its output. */
  private static String exec(List<String> cmd) throws Exception {
    try {
      Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      return p.waitFor() == 0 ? null : out.strip();
    } catch (IOException e) {
      return e.getMessage();
    }
  }

  /** Writes {@code bytes} of real data (a tmpfs holds no sparse file's holes). */
  private static void fill(Path file, long bytes) throws IOException {
    ByteBuffer chunk = ByteBuffer.allocate((int) MIB);
    try (FileChannel ch =
        FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      for (long left = bytes; left > 0; left -= MIB) {
        chunk.clear().limit((int) Math.min(MIB, left));
        while (chunk.hasRemaining()) {
          ch.write(chunk);
        }
      }
    }
  }

  /** One telnet put; the server's answer line, or empty when it answered nothing in time. */
  private static String telnetPut(int port) throws IOException {
    try (Socket s = new Socket("127.0.0.1", port)) {
      s.setSoTimeout(1_500);
      PrintWriter out =
          new PrintWriter(
              new java.io.OutputStreamWriter(s.getOutputStream(), StandardCharsets.UTF_8), true);
      BufferedReader in =
          new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
      out.print("put disk.test " + System.currentTimeMillis() / 1000 + " 1 host=a\n");
      out.flush();
      try {
        String line = in.readLine();
        return line == null ? "" : line;
      } catch (java.net.SocketTimeoutException quiet) {
        return ""; // OpenTSDB's telnet put answers nothing when it succeeds
      }
    }
  }

  private HttpResponse<String> post(int port) throws Exception {
    return PackagedServer.send(
        "POST", port, "/api/weibo/users/storm/posts", "{\"content\":\"" + CONTENT + "\"}");
  }

  private JsonNode health(int port) throws Exception {
    return Json.mapper().readTree(PackagedServer.send("GET", port, "/api/health", null).body());
  }

  private Set<String> postsOf(int port) throws Exception {
    Set<String> found = new HashSet<>();
    String cursor = null;
    do {
      String path =
          "/api/weibo/users/storm/posts?limit=1000" + (cursor == null ? "" : "&cursor=" + cursor);
      HttpResponse<String> r = PackagedServer.send("GET", port, path, null);
      assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
      JsonNode page = Json.mapper().readTree(r.body());
      page.get("posts").forEach(p -> found.add(p.get("id").asText()));
      cursor = page.get("next").isNull() ? null : page.get("next").asText();
    } while (cursor != null);
    return found;
  }
}
