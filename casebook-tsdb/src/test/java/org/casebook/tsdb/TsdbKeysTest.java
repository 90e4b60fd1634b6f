package org.casebook.tsdb;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.function.Function;
import org.casebook.core.key.KeyLayout;
import org.casebook.core.testing.KeyLayoutChecks;
import org.junit.jupiter.api.Test;

class TsdbKeysTest {
  /** The README's worked example: 2026-11-23T10:00Z, in hours since the epoch. */
  private static final int HOUR = 498_730;

  private static final byte[] METRIC = {0, 0, 1};

  /** host (tagk 1) = web01 (tagv 1), dc (tagk 2) = lga (tagv 2), sorted by tagk id. */
  private static final byte[] TAGS = {0, 0, 1, 0, 0, 1, 0, 0, 2, 0, 0, 2};

  @Test
  void everyLayoutRoundTripsAndKeepsItsOrder() {
    assertThat(TsdbKeys.ALL).hasSize(11);
    for (KeyLayout layout : TsdbKeys.ALL) {
      KeyLayoutChecks.verify(layout, 300, TsdbKeysTest::generator);
    }
  }

  /** Tags are whole (tagk, tagv) pairs of 3-byte ids. */
  private static Function<Random, Object> generator(KeyLayout.Part part) {
    if (!part.name().equals("tags")) {
      return null;
    }
    return r -> {
      byte[] b = new byte[6 * r.nextInt(4)];
      r.nextBytes(b);
      return b;
    };
  }

  @Test
  void aMetricsIndexedSeriesAreOneRangeInTsuidOrder() {
    byte[] next = {0, 0, 2};
    org.casebook.core.key.KeyRange range = TsdbKeys.indexSeriesOf(METRIC);
    assertThat(range.contains(TsdbKeys.indexSeriesRow(METRIC, TAGS))).isTrue();
    assertThat(range.contains(TsdbKeys.indexSeriesRow(METRIC, new byte[0]))).isTrue();
    assertThat(range.contains(TsdbKeys.indexSeriesRow(next, TAGS))).isFalse();
    assertThat(range.contains(TsdbKeys.indexStateRow(METRIC))).isFalse();
    assertThat(range.contains(TsdbKeys.indexBirthRow())).isFalse();
    // Row order is the tag run's unsigned byte order: a lookup's answer is in tsuid order.
    byte[] high = {0, 0, 1, (byte) 0x80, 0, 1};
    byte[] low = {0, 0, 1, 0x7F, 0, 1};
    assertThat(
            java.util.Arrays.compareUnsigned(
                TsdbKeys.indexSeriesRow(METRIC, low), TsdbKeys.indexSeriesRow(METRIC, high)))
        .isNegative();
  }

  @Test
  void theDescriptorListsEveryLayout() {
    assertThat(new TsdbSystem().descriptor().keys()).containsExactlyElementsOf(TsdbKeys.ALL);
  }

  @Test
  void theReadmesWorkedExampleIsWhatTheLayoutsPrint() throws IOException {
    assertThat(HOUR * 3600L).isEqualTo(1_795_428_000L);
    String readme = Files.readString(Path.of("README.md"), StandardCharsets.UTF_8);
    assertLine(readme, "data row", TsdbKeys.DATA.explain(METRIC, HOUR, TAGS));
    assertLine(readme, "salted row", TsdbKeys.SALTED_DATA.explain(5, METRIC, HOUR, TAGS));
    assertLine(
        readme,
        "forward row",
        TsdbKeys.UID_FORWARD.explain(
            TsdbKeys.FORWARD_SPACE, (int) UidKind.METRIC.code(), "sys.cpu.user"));
    assertLine(
        readme,
        "reverse row",
        TsdbKeys.UID_REVERSE.explain(TsdbKeys.REVERSE_SPACE, (int) UidKind.METRIC.code(), METRIC));
    assertLine(
        readme, "index state", TsdbKeys.INDEX_STATE.explain(TsdbKeys.INDEX_STATE_SPACE, METRIC));
    assertLine(
        readme,
        "index series",
        TsdbKeys.INDEX_SERIES.explain(TsdbKeys.INDEX_SERIES_SPACE, METRIC, TAGS));
    assertThat(TsdbKeys.indexSeriesRow(METRIC, TAGS))
        .isEqualTo(TsdbKeys.INDEX_SERIES.encode(TsdbKeys.INDEX_SERIES_SPACE, METRIC, TAGS));
    assertThat(TsdbKeys.indexSeriesTags(TsdbKeys.indexSeriesRow(METRIC, TAGS))).isEqualTo(TAGS);
    long offset42 = HOUR * 3_600_000L + 42_000;
    assertLine(
        readme, "t: ", hex(PointCodec.qualifier(offset42, false, PointCodec.flags(true, 1))));
    assertLine(
        readme,
        "t: ",
        hex(PointCodec.qualifier(offset42 + 10_000, false, PointCodec.flags(false, 4))));
  }

  private static String hex(byte[] b) {
    StringBuilder sb = new StringBuilder();
    for (byte x : b) {
      sb.append(sb.length() > 0 ? " " : "").append(String.format("%02X", x & 0xFF));
    }
    return sb.toString();
  }

  /** A line of the README that starts with {@code label} followed by exactly {@code bytes}. */
  private static void assertLine(String readme, String label, String bytes) {
    boolean found =
        readme
            .lines()
            .map(String::strip)
            .anyMatch(
                l -> l.startsWith(label) && l.substring(label.length()).strip().startsWith(bytes));
    assertThat(found).as("README line '%s %s'", label, bytes).isTrue();
  }
}
