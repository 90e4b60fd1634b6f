package org.casebook.tsdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.casebook.tsdb.QueryEngineAggregatorTest.T0;
import static org.casebook.tsdb.QueryEngineAggregatorTest.lp;
import static org.casebook.tsdb.QueryEngineAggregatorTest.series;
import static org.casebook.tsdb.QueryEngineAggregatorTest.text;

import java.util.List;
import java.util.Optional;
import org.casebook.core.InvalidInputException;
import org.junit.jupiter.api.Test;

/** Downsampling with each fill policy, rates with counters, and the scan window. */
class QueryEngineDownsampleRateTest {

  static SubQuery query(String aggregator, String downsample, boolean rate, RateOptions options) {
    return new SubQuery(
        SubQuery.aggregatorNamed(aggregator, "aggregator"),
        "m",
        rate,
        options,
        downsample == null
            ? Optional.empty()
            : Optional.of(DownsampleSpec.parse(downsample, "downsample")),
        List.of(),
        false);
  }

  static List<String> run(SubQuery q, long startSeconds, long endSeconds, List<Series> data) {
    List<QueryResult> results =
        QueryEngine.run(
            q, T0 + startSeconds * 1000, T0 + endSeconds * 1000, data, TagOrder.BY_NAME);
    assertThat(results).hasSize(1);
    return text(results.get(0).points());
  }

  // 10s=1, 20s=2, 70s=4: minute 0 averages to 1.5, minute 1 to 4, then nothing.
  static final List<Series> ONE = List.of(series("a", lp(10, 1), lp(20, 2), lp(70, 4)));

  @Test
  void downsampleValuesAreDoublesAtIntervalStarts() {
    assertThat(run(query("sum", "1m-avg", false, RateOptions.DEFAULT), 0, 180, ONE))
        .containsExactly("0=d1.5", "60=d4.0");
    assertThat(run(query("sum", "1m-sum", false, RateOptions.DEFAULT), 0, 180, ONE))
        .containsExactly("0=d3.0", "60=d4.0");
    assertThat(run(query("sum", "1m-count", false, RateOptions.DEFAULT), 0, 180, ONE))
        .containsExactly("0=d2.0", "60=d1.0");
  }

  @Test
  void fillPolicies() {
    assertThat(run(query("sum", "1m-avg-zero", false, RateOptions.DEFAULT), 0, 180, ONE))
        .containsExactly("0=d1.5", "60=d4.0", "120=d0.0", "180=d0.0");
    assertThat(run(query("sum", "1m-avg-nan", false, RateOptions.DEFAULT), 0, 180, ONE))
        .containsExactly("0=d1.5", "60=d4.0", "120=dNaN", "180=dNaN");
    assertThat(run(query("sum", "1m-avg-null", false, RateOptions.DEFAULT), 0, 180, ONE))
        .containsExactly("0=d1.5", "60=d4.0", "120=null", "180=null");
    assertThat(run(query("sum", "1m-avg-none", false, RateOptions.DEFAULT), 0, 180, ONE))
        .containsExactly("0=d1.5", "60=d4.0");
    // "scalar" parses, but OpenTSDB cannot fill with it.
    assertThatThrownBy(
            () -> run(query("sum", "1m-avg-scalar", false, RateOptions.DEFAULT), 0, 180, ONE))
        .isInstanceOf(IllegalStateException.class);
  }

  @Test
  void fillMeetsInterpolationAcrossSeries() {
    // B has data in minute 2 only. With nan fill, A's empty minute 2 is NaN and sum skips it;
    // without fill, A (ended at minute 1) no longer contributes.
    List<Series> two = List.of(series("a", lp(10, 1), lp(70, 4)), series("b", lp(130, 10)));
    assertThat(run(query("sum", "1m-sum-nan", false, RateOptions.DEFAULT), 0, 120, two))
        .containsExactly("0=d1.0", "60=d4.0", "120=d10.0");
    assertThat(run(query("sum", "1m-sum", false, RateOptions.DEFAULT), 0, 120, two))
        .containsExactly("0=d1.0", "60=d4.0", "120=d10.0");
    // With zero fill B counts as 0 where it has no data; with nan, count skips the NaN.
    assertThat(run(query("count", "1m-sum-zero", false, RateOptions.DEFAULT), 0, 120, two))
        .containsExactly("0=d2.0", "60=d2.0", "120=d2.0");
    assertThat(run(query("count", "1m-sum-nan", false, RateOptions.DEFAULT), 0, 120, two))
        .containsExactly("0=d1.0", "60=d1.0", "120=d1.0");
    // Without fill, A's minute-0 and minute-1 points LERP: B is not started yet, so only A.
    assertThat(run(query("avg", "1m-sum", false, RateOptions.DEFAULT), 0, 120, two))
        .containsExactly("0=d1.0", "60=d4.0", "120=d10.0");
  }

  @Test
  void allDownsamplerCollapsesTheQueryRangeEndExcluded() {
    // [15s, 70s): only the point at 20s; the one at 70s is at the (excluded) end.
    assertThat(run(query("sum", "0all-sum", false, RateOptions.DEFAULT), 15, 70, ONE))
        .containsExactly("15=d2.0");
    assertThat(run(query("sum", "0all-sum", false, RateOptions.DEFAULT), 15, 71, ONE))
        .containsExactly("15=d6.0");
  }

  // A counter: 10s=100, 20s=200, 30s=50 (reset or rollover), 40s=150.
  static final List<Series> COUNTER =
      List.of(series("a", lp(10, 100), lp(20, 200), lp(30, 50), lp(40, 150)));

  @Test
  void rateAndCounterOptions() {
    // The first rate (against time 0) is never printed.
    assertThat(run(query("sum", null, true, RateOptions.DEFAULT), 0, 60, COUNTER))
        .containsExactly("20=d10.0", "30=d-15.0", "40=d10.0");
    // Rolled over at 250: 250 - 200 + 50 = 100 in 10 s.
    assertThat(run(query("sum", null, true, new RateOptions(true, 250, 0, false)), 0, 60, COUNTER))
        .containsExactly("20=d10.0", "30=d10.0", "40=d10.0");
    // Default max is Long.MAX_VALUE: a huge rate, unless above the reset value (then 0).
    double huge = (double) (Long.MAX_VALUE - 200 + 50) / 10.0;
    assertThat(
            run(
                query("sum", null, true, new RateOptions(true, Long.MAX_VALUE, 0, false)),
                0,
                60,
                COUNTER))
        .containsExactly("20=d10.0", "30=d" + huge, "40=d10.0");
    assertThat(
            run(
                query("sum", null, true, new RateOptions(true, Long.MAX_VALUE, 1000, false)),
                0,
                60,
                COUNTER))
        .containsExactly("20=d10.0", "30=d0.0", "40=d10.0");
    // dropResets drops the point that went down; the next rate starts from it.
    assertThat(
            run(
                query("sum", null, true, new RateOptions(true, Long.MAX_VALUE, 0, true)),
                0,
                60,
                COUNTER))
        .containsExactly("20=d10.0", "40=d10.0");
  }

  @Test
  void rateAcrossSeriesUsesPreviousRatesIncludingTheFirstOne() {
    // A: 0s=0,10s=10,20s=20 (1/s); B: 5s=1000000, 15s=1000100, 25s=1000200 (10/s).
    List<Series> two =
        List.of(
            series("a", lp(0, 0), lp(10, 10), lp(20, 20)),
            series("b", lp(5, 1_000_000), lp(15, 1_000_100), lp(25, 1_000_200)));
    // At 10s B has no rate yet but its first rate, against time 0, counts.
    double bFirst = 1_000_000 / ((double) (T0 + 5000) / 1000.0);
    assertThat(run(query("sum", null, true, RateOptions.DEFAULT), 0, 60, two))
        .containsExactly("10=d" + (1.0 + bFirst), "15=d11.0", "20=d11.0", "25=d10.0");
  }

  @Test
  void downsampleThenRate() {
    // Minute sums 3 (minute 0) and 4 (minute 1): rate (4-3)/60 s.
    assertThat(run(query("sum", "1m-sum", true, RateOptions.DEFAULT), 0, 180, ONE))
        .containsExactly("60=d" + (1.0 / 60));
  }

  @Test
  void scanWindow() {
    long s = T0 / 1000;
    // No downsampling: from the hour of the start to the hour after end+1s.
    assertThat(ScanWindow.of(T0 + 1_800_000, T0 + 5_400_000, Optional.empty()))
        .isEqualTo(new ScanWindow(T0, T0 + 7_200_000));
    assertThat(ScanWindow.of(T0, T0 + 3_598_999, Optional.empty()))
        .isEqualTo(new ScanWindow(T0, T0 + 3_600_000));
    // One second before the hour: +1 s lands on the hour, so the next hour is read too.
    assertThat(ScanWindow.of(T0, T0 + 3_599_000, Optional.empty()))
        .isEqualTo(new ScanWindow(T0, T0 + 7_200_000));
    // An end on the hour still reads the next hour (OpenTSDB adds a second to ms ends).
    assertThat(ScanWindow.of(T0, T0 + 3_600_000, Optional.empty()))
        .isEqualTo(new ScanWindow(T0, T0 + 7_200_000));
    // A day interval aligns the start to the day (T0 is 22:00 UTC) and the end past the next day.
    Optional<DownsampleSpec> day = Optional.of(DownsampleSpec.parse("1d-avg", "downsample"));
    long dayStart = (s - s % 86_400) * 1000;
    assertThat(ScanWindow.of(T0 + 60_000, T0 + 120_000, day))
        .isEqualTo(new ScanWindow(dayStart, dayStart + 86_400_000));
    assertThat(ScanWindow.of(T0, T0 + 120_000, Optional.of(DownsampleSpec.parse("0all-avg", "d"))))
        .isEqualTo(new ScanWindow(T0, T0 + 3_600_000));
  }

  @Test
  void downsampleParsing() {
    DownsampleSpec spec = DownsampleSpec.parse("5m-max-NaN", "downsample");
    assertThat(spec.intervalMs()).isEqualTo(300_000);
    assertThat(spec.function().name()).isEqualTo("max");
    assertThat(spec.fillPolicy()).isEqualTo(FillPolicy.NAN);
    assertThat(DownsampleSpec.parse("0all-sum", "d").runAll()).isTrue();
    assertThat(DownsampleSpec.parse("500ms-sum", "d").intervalMs()).isEqualTo(500);
    assertThat(DownsampleSpec.parse("1s-sum", "d").intervalMs()).isEqualTo(1000);
    assertThat(DownsampleSpec.parse("2h-sum", "d").intervalMs()).isEqualTo(7_200_000);
    assertThat(DownsampleSpec.parse("1w-sum", "d").intervalMs()).isEqualTo(604_800_000);
    assertThat(DownsampleSpec.parse("1n-sum", "d").intervalMs()).isEqualTo(2_592_000_000L);
    assertThat(DownsampleSpec.parse("1y-sum", "d").intervalMs()).isEqualTo(31_536_000_000L);
    assertThat(DownsampleSpec.parse("1m-avg-", "d").fillPolicy()).isEqualTo(FillPolicy.NONE);
    assertBad(
        "1m", "Invalid downsampling specifier '1m': must provide at least interval and function");
    assertBad(
        "1m-avg-nan-x",
        "Invalid downsampling specifier '1m-avg-nan-x': must consist of interval, function, and optional fill policy");
    assertBad("1m-foo", "No such downsampling function: foo");
    assertBad("1m-none", "cannot use the NONE aggregator for downsampling");
    assertBad("1m-avg-foo", "Unrecognized fill policy: foo");
    assertBad("1x-avg", "Invalid duration (suffix): 1x");
    assertBad("0m-avg", "Zero or negative duration: 0m");
    assertBad("m-avg", "Invalid duration (number): m");
    assertBad("1dc-avg", "Calendar downsampling is not supported: 1dc-avg");
  }

  static void assertBad(String spec, String message) {
    assertThatThrownBy(() -> DownsampleSpec.parse(spec, "downsample"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessage(message)
        .hasFieldOrPropertyWithValue("field", "downsample");
  }
}
