package org.casebook.tsdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The point lists held in arrays ({@link ResultPoints}, {@link DataPoints}, {@link RolledHours})
 * read as the lists of objects they stand for.
 */
class PointArraysTest {
  private static final long HOUR_MS = 3_600_000L;

  @Test
  void resultPointsReadAsTheListTheyWereBuiltFrom() {
    Random r = new Random(1);
    List<ResultPoint> points = new ArrayList<>();
    for (int i = 0; i < 1_000; i++) {
      long t = 1_700_000_000_000L + i * 1_000L;
      points.add(
          switch (r.nextInt(3)) {
            case 0 -> ResultPoint.ofLong(t, r.nextLong());
            case 1 -> ResultPoint.ofNull(t);
            default -> ResultPoint.ofDouble(t, r.nextGaussian() * 1e6);
          });
    }
    ResultPoints held = ResultPoints.of(points);

    assertThat(held).isEqualTo(points).hasSameHashCodeAs(points);
    assertThat(ResultPoints.of(held)).isSameAs(held);
    assertThat(new QueryResult("m", java.util.Map.of(), List.of(), held).points()).isSameAs(held);
    assertThat(new QueryResult("m", java.util.Map.of(), List.of(), held))
        .isEqualTo(new QueryResult("m", java.util.Map.of(), List.of(), points));
    assertThatThrownBy(() -> held.add(points.get(0)))
        .isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> held.get(1_000)).isInstanceOf(IndexOutOfBoundsException.class);
  }

  @Test
  void dataPointsAndTheirSubListsReadAsDoublePoints() {
    long[] times = new long[50];
    double[] values = new double[50];
    List<DataPoint> expected = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      times[i] = i * HOUR_MS;
      values[i] = i / 3.0;
      expected.add(DataPoint.ofDouble(times[i], values[i]));
    }
    DataPoints points = new DataPoints(times, values, 40);

    assertThat(points).isEqualTo(expected);
    assertThat(points.subList(5, 17)).isEqualTo(expected.subList(5, 17));
    assertThat(points.subList(5, 17).subList(2, 4)).isEqualTo(expected.subList(7, 9));
    assertThat(points.subList(3, 3)).isEmpty();
    assertThatThrownBy(() -> points.get(40)).isInstanceOf(IndexOutOfBoundsException.class);
    assertThatThrownBy(() -> points.subList(0, 41)).isInstanceOf(IndexOutOfBoundsException.class);
  }

  @Test
  void rolledHoursKeepEachHourInOrderAndJoinLaterOnes() {
    RolledHours first = new RolledHours(1);
    RolledHours later = new RolledHours(1);
    List<HourRollup> rollups = new ArrayList<>();
    for (int h = 0; h < 30; h++) {
      HourRollup rollup =
          h % 7 == 0 ? new HourRollup(3, 0, 0, 1, -1) : new HourRollup(60, 58, h * 3.5, -h, h);
      rollups.add(rollup);
      (h < 10 ? first : later).add(1_000 + h, rollup);
    }
    first.addAll(later);

    assertThat(first.size()).isEqualTo(30);
    for (int i = 0; i < 30; i++) {
      assertThat(first.hour(i)).isEqualTo(1_000 + i);
      assertThat(first.rollup(i)).isEqualTo(rollups.get(i));
      for (Aggregator.Function f :
          List.of(
              Aggregator.Function.SUM,
              Aggregator.Function.COUNT,
              Aggregator.Function.MIN,
              Aggregator.Function.MAX,
              Aggregator.Function.AVG)) {
        assertThat(Double.valueOf(first.value(i, f)))
            .isEqualTo(Double.valueOf(rollups.get(i).value(f)));
      }
    }
    assertThat(first.anyPoints()).isTrue();
    assertThatThrownBy(() -> first.add(1_029, rollups.get(0)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(new RolledHours(0).anyPoints()).isFalse();
  }
}
