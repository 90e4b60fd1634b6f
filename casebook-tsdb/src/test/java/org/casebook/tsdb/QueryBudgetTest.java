package org.casebook.tsdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class QueryBudgetTest {
  private static ByteBuffer series(int i) {
    return ByteBuffer.wrap(new byte[] {0, 0, 1, 0, 0, (byte) i});
  }

  @Test
  void theRowThatPassesThePointLimitIsRefusedAndSoIsEveryLaterOne() {
    QueryBudget budget = new QueryLimits(10, 0, Duration.ZERO).start();
    budget.row(series(1), false, 6);
    budget.row(series(1), true, 4);
    assertThatThrownBy(() -> budget.row(series(1), true, 1))
        .isInstanceOfSatisfying(
            QueryLimitException.class, e -> assertThat(e.setting()).isEqualTo("query-max-points"));
    // Another part of the same query stops at its next row or check.
    assertThatThrownBy(budget::check).isInstanceOf(QueryLimitException.class);
    assertThatThrownBy(() -> budget.row(series(2), false, 0))
        .isInstanceOf(QueryLimitException.class);
  }

  @Test
  void aSeriesIsCountedOnceAcrossHoursAndParts() {
    QueryBudget budget = new QueryLimits(0, 2, Duration.ZERO).start();
    budget.row(series(1), false, 1);
    budget.row(series(1), true, 1);
    budget.row(series(1), false, 1);
    budget.row(series(2), false, 1);
    assertThatThrownBy(() -> budget.row(series(3), false, 1))
        .isInstanceOfSatisfying(
            QueryLimitException.class, e -> assertThat(e.setting()).isEqualTo("query-max-series"));
  }

  @Test
  void theDeadlineIsCheckedOnEveryRow() throws Exception {
    QueryBudget budget = new QueryLimits(0, 0, Duration.ofMillis(5)).start();
    budget.row(series(1), false, 1);
    Thread.sleep(10);
    assertThatThrownBy(() -> budget.row(series(1), true, 1))
        .isInstanceOfSatisfying(
            QueryLimitException.class, e -> assertThat(e.setting()).isEqualTo("query-timeout"));
  }

  @Test
  void zeroMeansNoLimitAndTheTimeoutSettingPrintsAsItIsWritten() {
    QueryBudget budget = new QueryLimits(0, 0, Duration.ZERO).start();
    for (int i = 0; i < 1000; i++) {
      budget.row(series(i), false, 1_000_000);
    }
    budget.willEmit(Long.MAX_VALUE);
    assertThat(QueryLimits.Timeout.parse("30s").toString()).isEqualTo("30s");
    assertThat(QueryLimits.Timeout.parse("1500ms").toString()).isEqualTo("1500ms");
    assertThat(QueryLimits.Timeout.parse("2m").value()).isEqualTo(Duration.ofMinutes(2));
    assertThat(QueryLimits.Timeout.parse("0").value()).isZero();
    assertThatThrownBy(() -> QueryLimits.Timeout.parse("soon"))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
