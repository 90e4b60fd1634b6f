package org.casebook.core.schema;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.io.compress.Compression;
import org.apache.hadoop.hbase.util.CompressionTest;
import org.apache.hadoop.io.compress.Compressor;
import org.apache.hadoop.io.compress.Decompressor;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Every codec Casebook declares works in this JVM without a native library. */
class PureJavaCodecsTest {
  @ParameterizedTest
  @EnumSource(
      value = Compression.Algorithm.class,
      names = {"GZ", "LZ4", "SNAPPY", "ZSTD"})
  void compressesAndRestoresWithoutANativeLibrary(Compression.Algorithm algorithm)
      throws Exception {
    Configuration conf = new Configuration(false);
    PureJavaCodecs.install(conf);
    if (PureJavaCodecs.KEYS.containsKey(algorithm)) {
      assertThat(conf.get(PureJavaCodecs.KEYS.get(algorithm)))
          .startsWith("org.apache.hadoop.hbase.io.compress.aircompressor.");
    }
    CompressionTest.testCompression(algorithm);
    byte[] input =
        "uid=1001,day=2026-09-01,behaviour=play;".repeat(500).getBytes(StandardCharsets.UTF_8);
    ByteArrayOutputStream compressed = new ByteArrayOutputStream();
    Compressor compressor = algorithm.getCompressor();
    try (OutputStream out = algorithm.createCompressionStream(compressed, compressor, 0)) {
      out.write(input);
    } finally {
      algorithm.returnCompressor(compressor);
    }
    assertThat(compressed.size()).isLessThan(input.length / 4);
    Decompressor decompressor = algorithm.getDecompressor();
    try (InputStream in =
        algorithm.createDecompressionStream(
            new ByteArrayInputStream(compressed.toByteArray()), decompressor, 0)) {
      assertThat(in.readAllBytes()).isEqualTo(input);
    } finally {
      algorithm.returnDecompressor(decompressor);
    }
  }
}
