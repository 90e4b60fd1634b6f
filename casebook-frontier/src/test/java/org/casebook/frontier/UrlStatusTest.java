package org.casebook.frontier;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class UrlStatusTest {
  private static UrlStatus at(long version, long... earlier) {
    return new UrlStatus(version, new byte[0], null, 0, 0, earlier);
  }

  @Test
  void aWriteWasMadeIfItsVersionIsTheRowsOrOneOfTheEarlierOnesKept() {
    UrlStatus s = at(7, 5, 3);
    assertThat(s.made(7)).isTrue();
    assertThat(s.made(5)).isTrue();
    assertThat(s.made(3)).isTrue();
    assertThat(s.made(4)).isFalse();
  }

  @Test
  void aReplacingWriteKeepsTheReplacedVersionFirstAndOnlyTheNewestEarlierOnes() {
    assertThat(at(1).earlierAfterReplace()).containsExactly(1);
    assertThat(at(9, 8, 7).earlierAfterReplace()).containsExactly(9, 8, 7);
    long[] full = new long[UrlStatus.EARLIER_KEPT];
    for (int i = 0; i < full.length; i++) {
      full[i] = 100 - i;
    }
    long[] after = at(101, full).earlierAfterReplace();
    assertThat(after).hasSize(UrlStatus.EARLIER_KEPT);
    assertThat(after[0]).isEqualTo(101);
    assertThat(after[1]).isEqualTo(100);
    assertThat(at(101, full).made(100 - UrlStatus.EARLIER_KEPT + 1)).isTrue();
    assertThat(new UrlStatus(0, new byte[0], null, 0, 0, after).made(full[full.length - 1]))
        .as("the oldest one dropped")
        .isFalse();
  }
}
