package org.casebook.tsdb.wire;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.core.io.SerializedString;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.casebook.core.Json;
import org.junit.jupiter.api.Test;

/**
 * {@link JsonNumberText} against the text clients got before it: Jackson's writer with its fast
 * double writer, NaN and the infinities as strings of {@code Double.toString}.
 */
class JsonNumberTextTest {
  // Fixed seeds, so each run checks the same values; a run with ten times as many passed too.
  private static final int RANDOM = 200_000;

  @Test
  void edgeDoublesAreWrittenAsJacksonWritesThem() {
    List<Double> values = new ArrayList<>();
    double[] edges = {
      0.0,
      -0.0,
      Double.NaN,
      Double.POSITIVE_INFINITY,
      Double.NEGATIVE_INFINITY,
      Double.MIN_VALUE,
      Double.MIN_NORMAL,
      Double.MAX_VALUE,
      Math.nextDown(Double.MIN_NORMAL),
      1e-3,
      1e7,
      0.1,
      0.2,
      0.3,
      0.1 + 0.2,
      1.0,
      2.0,
      9.999999999999999,
      9999999.999999998,
      9999999.999999999,
      2.82879384806159E17,
      1.0E23,
      2.0E-3,
      5e-324,
      123456.789,
      49.87166666666667,
      99.99,
      0.001
    };
    for (double e : edges) {
      values.add(e);
      values.add(Math.nextUp(e));
      values.add(Math.nextDown(e));
    }
    for (int e = -1074; e <= 1023; e++) {
      double power = Math.scalb(1.0, e);
      values.add(power);
      values.add(Math.nextUp(power));
      values.add(Math.nextDown(power));
    }
    for (int e = -325; e <= 308; e++) {
      double power = Double.parseDouble("1e" + e);
      values.add(power);
      values.add(Math.nextUp(power));
      values.add(Math.nextDown(power));
      values.add(Double.parseDouble("5e" + e));
      values.add(Double.parseDouble("9.5e" + e));
    }
    for (long i = -1000; i <= 100_000; i++) {
      values.add((double) i);
    }
    List<Double> both = new ArrayList<>(values);
    values.forEach(v -> both.add(-v));
    assertWrittenAsJackson(both);
  }

  @Test
  void randomDoublesOfEveryExponentAreWrittenAsJacksonWritesThem() {
    SplittableRandom random = new SplittableRandom(20261129L);
    double[] values = new double[RANDOM];
    for (int i = 0; i < RANDOM; i++) {
      values[i] = Double.longBitsToDouble(random.nextLong());
    }
    assertWrittenAsJackson(values);
  }

  @Test
  void randomDoublesOfTheUsualRangesAreWrittenAsJacksonWritesThem() {
    SplittableRandom random = new SplittableRandom(7L);
    double[] values = new double[5 * RANDOM];
    for (int i = 0; i < values.length; ) {
      // Averages of readings with two decimals, as an hourly answer holds.
      double sum = 0;
      int n = 1 + random.nextInt(120);
      for (int k = 0; k < n; k++) {
        sum += random.nextInt(10_000) / 100.0;
      }
      values[i++] = sum / n;
      values[i++] = random.nextDouble(1e-3, 1e7);
      values[i++] = random.nextDouble(0, 1e-2);
      values[i++] = random.nextInt(100_000_000) / Math.pow(10, random.nextInt(12));
      values[i++] = Math.scalb(random.nextDouble(1, 2), random.nextInt(-12, 26));
    }
    assertWrittenAsJackson(values);
  }

  @Test
  void subnormalsAreWrittenAsJacksonWritesThem() {
    SplittableRandom random = new SplittableRandom(11L);
    double[] values = new double[100_000];
    for (int i = 0; i < values.length; i++) {
      values[i] = Double.longBitsToDouble(random.nextLong(1, 1L << 52));
    }
    assertWrittenAsJackson(values);
  }

  @Test
  void longsAreWrittenAsLongToString() {
    SplittableRandom random = new SplittableRandom(3L);
    List<Long> values =
        new ArrayList<>(
            List.of(
                0L, 1L, -1L, 9L, 10L, 99L, 100L, Long.MAX_VALUE, Long.MIN_VALUE, -Long.MAX_VALUE));
    for (long p = 1; p > 0 && p <= Long.MAX_VALUE / 10; p *= 10) {
      values.add(p);
      values.add(p - 1);
      values.add(-p);
      values.add(1 - p);
    }
    for (int i = 0; i < 100_000; i++) {
      values.add(random.nextLong());
      values.add(random.nextLong(-100_000_000_000L, 100_000_000_000L));
    }
    byte[] out = new byte[JsonNumberText.MAX_BYTES + 4];
    for (long v : values) {
      int end = JsonNumberText.writeLong(v, out, 2);
      assertThat(new String(out, 2, end - 2, StandardCharsets.US_ASCII))
          .isEqualTo(Long.toString(v));
    }
  }

  private static void assertWrittenAsJackson(List<Double> values) {
    double[] v = new double[values.size()];
    for (int i = 0; i < v.length; i++) {
      v[i] = values.get(i);
    }
    assertWrittenAsJackson(v);
  }

  /** Each value as {@link JsonNumberText} writes it and as Jackson's writer wrote it, alike. */
  private static void assertWrittenAsJackson(double[] values) {
    String[] expected = jackson(values);
    assertThat(expected).hasSize(values.length);
    byte[] out = new byte[JsonNumberText.MAX_BYTES + 3];
    for (int i = 0; i < values.length; i++) {
      int end = JsonNumberText.writeDouble(values[i], out, 3);
      String written = new String(out, 3, end - 3, StandardCharsets.US_ASCII);
      if (!written.equals(expected[i])) {
        // Named with its bits: two doubles can print alike in a failure message.
        assertThat(written)
            .as("%s (bits %x)", expected[i], Double.doubleToRawLongBits(values[i]))
            .isEqualTo(expected[i]);
      }
    }
  }

  /** What the answer's writer wrote before: Jackson's text, non-finite values as strings. */
  private static String[] jackson(double[] values) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (JsonGenerator g = Json.mapper().getFactory().createGenerator(bytes)) {
      g.setRootValueSeparator(new SerializedString("\n"));
      g.enable(StreamWriteFeature.USE_FAST_DOUBLE_WRITER.mappedFeature());
      for (double v : values) {
        if (Double.isNaN(v) || Double.isInfinite(v)) {
          g.writeString(Double.toString(v));
        } else {
          g.writeNumber(v);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toString(StandardCharsets.US_ASCII).split("\n", -1);
  }
}
