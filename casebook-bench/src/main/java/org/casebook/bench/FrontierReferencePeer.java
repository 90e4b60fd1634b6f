package org.casebook.bench;

import crawlercommons.urlfrontier.URLFrontierGrpc;
import crawlercommons.urlfrontier.Urlfrontier;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.StatusRuntimeException;
import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.casebook.core.LocalFileException;
import org.casebook.core.StorageException;

/**
 * The URLFrontier reference service (RocksDB), from a jar the operator built, in a child JVM on
 * loopback with its own RocksDB directory; stopped (and its directory left for inspection) at
 * close.
 */
final class FrontierReferencePeer implements AutoCloseable {
  private final Process process;
  final int port;
  final Path log;

  private FrontierReferencePeer(Process process, int port, Path log) {
    this.process = process;
    this.port = port;
    this.log = log;
  }

  static FrontierReferencePeer start(Path jar, Path workDir) throws InterruptedException {
    if (!Files.isRegularFile(jar)) {
      throw LocalFileException.of(
          "read", jar, new java.io.FileNotFoundException("the reference service jar is missing"));
    }
    int port = freePort();
    Path rocks = workDir.resolve("rocksdb");
    Path log = workDir.resolve("reference.log");
    Process p;
    try {
      Files.createDirectories(workDir);
      p =
          new ProcessBuilder(
                  List.of(
                      Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                      "-Xmx1g",
                      "-jar",
                      jar.toAbsolutePath().toString(),
                      "-p",
                      Integer.toString(port),
                      "rocksdb.path=" + rocks.toAbsolutePath()))
              .directory(workDir.toFile())
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.to(log.toFile()))
              .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
              .start();
    } catch (IOException e) {
      throw LocalFileException.of("run", jar, e);
    }
    FrontierReferencePeer peer = new FrontierReferencePeer(p, port, log);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    ManagedChannel ch = ManagedChannelBuilder.forAddress("127.0.0.1", port).usePlaintext().build();
    try {
      while (true) {
        try {
          URLFrontierGrpc.newBlockingStub(ch)
              .withDeadlineAfter(2, TimeUnit.SECONDS)
              .listNodes(Urlfrontier.Empty.getDefaultInstance());
          return peer;
        } catch (StatusRuntimeException e) {
          if (!p.isAlive() || System.nanoTime() > deadline) {
            peer.close();
            throw StorageException.of(
                "start the reference service (see " + log + ")", new IOException(e.getMessage()));
          }
          Thread.sleep(250);
        }
      }
    } finally {
      ch.shutdownNow();
    }
  }

  private static int freePort() {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    } catch (IOException e) {
      throw StorageException.of("find a free port", e);
    }
  }

  @Override
  public void close() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
    }
  }
}
