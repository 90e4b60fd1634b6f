package org.casebook.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.hadoop.hbase.io.compress.Compression;
import org.casebook.core.InvalidInputException;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code bench storage}'s options and codec order, without HBase. */
class StorageBenchmarkTest {
  @Test
  void anUnknownCodecExitsWithTwoNamingTheOption() {
    PrintStream err = System.err;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    int code;
    try {
      System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
      code = BenchMain.run("bench", "storage", "--codecs", "NONE,ZIP");
    } finally {
      System.setErr(err);
    }

    assertThat(code).isEqualTo(2);
    assertThat(captured.toString(StandardCharsets.UTF_8))
        .contains("--codecs")
        .contains("'ZIP'")
        .contains("ZSTD");
  }

  @Test
  void optionsThatChooseAnotherHBaseAreRefusedNotIgnored() {
    PrintStream err = System.err;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    int code;
    try {
      System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
      code = BenchMain.run("--zk", "127.0.0.1:1", "bench", "storage", "--systems", "tsdb");
    } finally {
      System.setErr(err);
    }
    assertThat(code).isEqualTo(2);
    assertThat(captured.toString(StandardCharsets.UTF_8))
        .contains("invalid zk")
        .contains("does not take --zk");
  }

  @Test
  void codecsAreParsedInOrderAndNoneIsRequired() {
    assertThat(options("--codecs", "none,zstd,Lz4").algorithms())
        .containsExactly(
            Compression.Algorithm.NONE, Compression.Algorithm.ZSTD, Compression.Algorithm.LZ4);
    assertThat(options().algorithms()).hasSize(5).startsWith(Compression.Algorithm.NONE);

    assertThatThrownBy(() -> options("--codecs", "LZ4,ZSTD").validate())
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("NONE");
    assertThatThrownBy(() -> options("--codecs", "NONE,LZ4,lz4").validate())
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("twice");
    assertThatThrownBy(() -> options("--systems", "trails,hbase").validate())
        .isInstanceOfSatisfying(
            InvalidInputException.class, e -> assertThat(e.field()).isEqualTo("systems"));
    assertThatThrownBy(() -> options("--reads", "5").validate())
        .isInstanceOfSatisfying(
            InvalidInputException.class, e -> assertThat(e.field()).isEqualTo("reads"));
  }

  @Test
  void eachRotationPutsAnotherCodecFirst() {
    List<String> codecs = List.of("NONE", "GZ", "LZ4");

    assertThat(StorageBenchmark.rotated(codecs, 0)).containsExactly("NONE", "GZ", "LZ4");
    assertThat(StorageBenchmark.rotated(codecs, 1)).containsExactly("GZ", "LZ4", "NONE");
    assertThat(StorageBenchmark.rotated(codecs, 5)).containsExactly("LZ4", "NONE", "GZ");
  }

  private static StorageBenchmark.Options options(String... args) {
    StorageBenchmark.Options o = new StorageBenchmark.Options();
    new CommandLine(o).parseArgs(args);
    return o;
  }
}
