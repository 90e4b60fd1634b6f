package org.casebook.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.casebook.bench.StorageChoice.Measured;
import org.junit.jupiter.api.Test;

/** The rule that names a table's codec from its figures. */
class StorageChoiceTest {
  private static final Measured NONE = new Measured("NONE", 1000, 100_000, 1.0);

  @Test
  void fewestBytesAmongThoseWithinTenPercentOfNone() {
    StorageChoice.Choice c =
        StorageChoice.choose(
            List.of(
                NONE,
                new Measured("LZ4", 400, 95_000, 1.05),
                new Measured("ZSTD", 250, 91_000, 1.09),
                new Measured("GZ", 300, 99_000, 1.0)));

    assertThat(c.codec()).isEqualTo("ZSTD");
    assertThat(c.withinTolerance()).isTrue();
    assertThat(c.bytesRatio()).isEqualTo(0.25);
    assertThat(c.writeRatio()).isEqualTo(0.91);
    assertThat(c.p99Ratio()).isEqualTo(1.09);
  }

  @Test
  void aSmallerCodecBeyondTheToleranceLosesToOneWithinIt() {
    StorageChoice.Choice c =
        StorageChoice.choose(
            List.of(
                NONE,
                // 12 % slower writes: out, however small.
                new Measured("ZSTD", 200, 88_000, 1.0),
                // 11 % more read p99: out.
                new Measured("GZ", 220, 100_000, 1.11),
                new Measured("LZ4", 400, 100_000, 1.1)));

    assertThat(c.codec()).isEqualTo("LZ4");
    assertThat(c.withinTolerance()).isTrue();
  }

  @Test
  void withNoneWithinTheSmallestIsChosenAndMarkedWithItsCost() {
    StorageChoice.Choice c =
        StorageChoice.choose(
            List.of(
                NONE,
                new Measured("LZ4", 400, 80_000, 1.5),
                new Measured("ZSTD", 250, 60_000, 1.05)));

    assertThat(c.codec()).isEqualTo("ZSTD");
    assertThat(c.withinTolerance()).isFalse();
    assertThat(c.note()).contains("COST").contains("write rate -40 %").doesNotContain("p99");
    assertThat(c.note()).contains("75 % fewer bytes");
  }

  @Test
  void noneWhenNoCodecStoresFewerBytes() {
    StorageChoice.Choice c =
        StorageChoice.choose(List.of(NONE, new Measured("LZ4", 1000, 100_000, 1.0)));

    assertThat(c.codec()).isEqualTo("NONE");
    assertThat(c.withinTolerance()).isTrue();
    assertThat(c.note()).contains("no codec stores it in fewer bytes");
  }

  @Test
  void figuresWithoutNoneAreRefused() {
    assertThatThrownBy(() -> StorageChoice.choose(List.of(new Measured("LZ4", 400, 100_000, 1.0))))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
