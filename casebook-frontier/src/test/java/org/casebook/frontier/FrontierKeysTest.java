package org.casebook.frontier;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.regex.Pattern;
import org.casebook.core.key.KeyLayout;
import org.casebook.core.testing.KeyLayoutChecks;
import org.junit.jupiter.api.Test;

class FrontierKeysTest {
  /** The README's worked example: channel 1 (crawl ID "news"), host example.com, one URL. */
  static final long CHANNEL = 1;

  static final String HOST = "example.com";
  static final String URL = "https://example.com/a";
  static final long DUE = 1_789_000_000_000L; // 2026-09-10T00:26:40Z

  /** The PurgeURLs batch of the example's settled mark. */
  static final long BATCH = 42;

  /** The id a node drew at its start, in the example's node row. */
  static final long NODE = 0x1F3A5C7E9B2D4F60L;

  /** The token of the host's stamp the example's due row was written for. */
  static final long TOKEN = 0x2E1F88A05B37C4D9L;

  @Test
  void everyLayoutRoundTripsAndKeepsItsOrder() {
    assertThat(FrontierKeys.ALL).hasSize(11);
    for (KeyLayout layout : FrontierKeys.ALL) {
      KeyLayoutChecks.verify(layout, 300);
    }
  }

  @Test
  void theDescriptorListsEveryLayout() {
    assertThat(new FrontierSystem().descriptor().keys())
        .containsExactlyElementsOf(FrontierKeys.ALL);
  }

  @Test
  void aHostsQueueIsOneBoundedRangeInPriorityOrder() {
    byte[] host = FrontierKeys.hostId(HOST);
    byte[] first = FrontierKeys.URL.encode(CHANNEL, host, DUE, FrontierKeys.urlId(URL));
    byte[] later = FrontierKeys.URL.encode(CHANNEL, host, DUE + 1, FrontierKeys.urlId("https://b"));
    assertThat(Arrays.compareUnsigned(first, later)).isNegative();
    assertThat(FrontierKeys.URL.range(CHANNEL, host).contains(first)).isTrue();
    byte[] otherHost = FrontierKeys.hostId("example.org");
    assertThat(
            FrontierKeys.URL
                .range(CHANNEL, host)
                .contains(
                    FrontierKeys.URL.encode(CHANNEL, otherHost, DUE, FrontierKeys.urlId(URL))))
        .isFalse();
    // negative priorities (a priority channel's "highest first") sort before positive ones
    byte[] urgent = FrontierKeys.URL.encode(CHANNEL, host, -5L, FrontierKeys.urlId(URL));
    assertThat(Arrays.compareUnsigned(urgent, first)).isNegative();
  }

  @Test
  void aDueRowWithoutTokenSortsWithTheRowsOfItsTime() {
    byte[] host = FrontierKeys.hostId(HOST);
    byte[] old = FrontierKeys.DUE_UNTOKENED.encode(CHANNEL, DUE, host);
    byte[] tokened = FrontierKeys.DUE.encode(CHANNEL, DUE, host, TOKEN);
    byte[] later = FrontierKeys.DUE.encode(CHANNEL, DUE + 1, host, Long.MIN_VALUE);
    assertThat(Arrays.copyOf(tokened, old.length)).isEqualTo(old);
    assertThat(Arrays.compareUnsigned(tokened, later)).isNegative();
    assertThat(FrontierKeys.DUE.range(CHANNEL).contains(old)).isTrue();
  }

  @Test
  void theChannelRowHeadsItsHostsAndIsToldApart() {
    byte[] channel = FrontierKeys.CHANNEL.encode(CHANNEL);
    byte[] host = FrontierKeys.HOST.encode(CHANNEL, FrontierKeys.hostId(HOST));
    assertThat(Arrays.copyOf(host, channel.length)).isEqualTo(channel);
    assertThat(FrontierKeys.isChannelRow(channel)).isTrue();
    assertThat(FrontierKeys.isChannelRow(host)).isFalse();
    assertThat(FrontierKeys.hostIdOf(host)).isEqualTo(FrontierKeys.hostId(HOST));
  }

  @Test
  void theReadmesWorkedExampleIsWhatTheLayoutsPrint() throws IOException {
    String readme = Files.readString(Path.of("README.md"), StandardCharsets.UTF_8);
    byte[] host = FrontierKeys.hostId(HOST);
    byte[] url = FrontierKeys.urlId(URL);
    assertLine(readme, "frontier:channels", FrontierKeys.CHANNEL_NAME.explain("news"));
    assertLine(readme, "frontier:hosts", FrontierKeys.CHANNEL.explain(CHANNEL));
    assertLine(readme, "frontier:hosts", FrontierKeys.HOST.explain(CHANNEL, host));
    assertLine(readme, "frontier:urls", FrontierKeys.URL.explain(CHANNEL, host, DUE, url));
    assertLine(readme, "frontier:known", FrontierKeys.KNOWN.explain(CHANNEL, host, url));
    assertLine(readme, "frontier:due", FrontierKeys.DUE.explain(CHANNEL, DUE, host, TOKEN));
    assertLine(readme, "frontier:nodes", FrontierKeys.NODE.explain(NODE));
    assertLine(readme, "s:", FrontierKeys.DAY_COUNTER.explain(Days.of(DUE), "put"));
    assertLine(readme, "p:", FrontierKeys.PURGE.explain(CHANNEL));
    assertLine(readme, "h:", FrontierKeys.PURGE_SETTLED.explain(host, BATCH));
  }

  /** A line of the README that starts with {@code label} followed by exactly {@code bytes}. */
  private static void assertLine(String readme, String label, String bytes) {
    Pattern line =
        Pattern.compile(
            "(?m)^\\s*" + Pattern.quote(label) + "\\s*" + Pattern.quote(bytes) + "(\\s|$)");
    assertThat(line.matcher(readme).find()).as("README line '%s %s'", label, bytes).isTrue();
  }
}
