package org.casebook.tsdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Downsampling from hourly rollups gives what downsampling the points gives: the same intervals and
 * fill points, the same doubles for one-hour intervals, NaN where the points have only NaN.
 */
class RolledDownsampleTest {
  private static final long HOUR = 3_600_000L;

  private static List<DataPoint> randomPoints(Random r, long from, long to) {
    List<DataPoint> points = new ArrayList<>();
    for (long ts = from; ts < to; ts += 1_000L + r.nextInt(600_000)) {
      if ((ts / HOUR) % 7 == 3) {
        continue; // a gap: hours without points
      }
      points.add(
          switch (r.nextInt(10)) {
            case 0 -> DataPoint.ofDouble(ts, Double.NaN);
            case 1, 2, 3 -> DataPoint.ofLong(ts, r.nextInt(2_000) - 1_000);
            default -> DataPoint.ofDouble(ts, r.nextGaussian() * 1e3);
          });
    }
    return points;
  }

  @Test
  void rollupsDownsampleAsThePointsDo() {
    Random r = new Random(42);
    long from = 480_000 * HOUR;
    long to = from + 3 * 24 * HOUR;
    List<DataPoint> points = randomPoints(r, from, to);
    RolledHours hours = new RolledHours(0);
    RolledDownsample.addHours(points, hours);
    for (String function : List.of("sum", "count", "min", "max", "avg", "zimsum", "mimmin")) {
      for (String interval : List.of("1h", "3h", "1d")) {
        for (String fill : List.of("", "-zero", "-nan", "-null")) {
          DownsampleSpec spec = DownsampleSpec.parse(interval + "-" + function + fill, "d");
          ScanWindow window = ScanWindow.of(from + 1_234, to - 1, Optional.of(spec));
          List<DataPoint> expected =
              SeriesTransforms.downsample(window.cut(points), spec, window, from + 1_234, to - 1);
          List<DataPoint> actual = RolledDownsample.downsample(hours, spec, window);
          assertThat(actual).as(spec.text()).hasSameSizeAs(expected);
          for (int i = 0; i < expected.size(); i++) {
            DataPoint e = expected.get(i);
            DataPoint a = actual.get(i);
            assertThat(a.timestampMs()).as(spec.text()).isEqualTo(e.timestampMs());
            if (interval.equals("1h") || Double.isNaN(e.doubleValue())) {
              assertThat(Double.valueOf(a.doubleValue()))
                  .as(spec.text())
                  .isEqualTo(Double.valueOf(e.doubleValue()));
            } else {
              assertThat(a.doubleValue())
                  .as(spec.text())
                  .isCloseTo(
                      e.doubleValue(), within(1e-9 * Math.max(1, Math.abs(e.doubleValue()))));
            }
          }
        }
      }
    }
  }

  @Test
  void onlyWholeHourIntervalsOfRolledFunctionsAreAnswered() {
    assertThat(RolledDownsample.answers(SubQuery.parseM("sum:1h-avg:m"))).isTrue();
    assertThat(RolledDownsample.answers(SubQuery.parseM("sum:2d-count:m"))).isTrue();
    assertThat(RolledDownsample.answers(SubQuery.parseM("sum:90m-avg:m"))).isFalse();
    assertThat(RolledDownsample.answers(SubQuery.parseM("sum:1h-p99:m"))).isFalse();
    assertThat(RolledDownsample.answers(SubQuery.parseM("sum:0all-sum:m"))).isFalse();
    assertThat(RolledDownsample.answers(SubQuery.parseM("sum:m"))).isFalse();
  }

  @Test
  void aDayCellRoundTrips() {
    RollupStore.Slot[] slots = new RollupStore.Slot[24];
    slots[0] = new RollupStore.Slot(new HourRollup(1, 1, 1, 1, 1), 100);
    slots[23] = new RollupStore.Slot(new HourRollup(2, 2, 4, 1, 3), 120);
    assertThat(RollupStore.slots(RollupStore.encodeDay(slots))).containsExactly(slots);
    assertThat(RollupStore.slots(null)).containsOnlyNulls();
  }

  @Test
  void aRollupCellRoundTrips() {
    HourRollup r = new HourRollup(7, 6, -12.5, -40, 33.25);
    assertThat(HourRollup.decode(r.encode())).isEqualTo(r);
    assertThat(r.encode()).hasSize(HourRollup.BYTES);
  }
}
