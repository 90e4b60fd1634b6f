package org.casebook.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RuntimeSettingsTest {
  @Test
  void longRunningProcessesReportLessOften() {
    RuntimeSettings settings =
        RuntimeSettings.embedded(Path.of("data")).withOverrides(Map.of("a.key", "1"));

    assertThat(settings.forLongRunning().overrides())
        .containsEntry(HBaseRuntime.REPORT_INTERVAL_KEY, "3000")
        .containsEntry("a.key", "1");
    assertThat(settings.overrides()).doesNotContainKey(HBaseRuntime.REPORT_INTERVAL_KEY);
  }

  @Test
  void theUsersOwnReportIntervalWins() {
    RuntimeSettings settings =
        RuntimeSettings.embedded(Path.of("data"))
            .withOverrides(Map.of(HBaseRuntime.REPORT_INTERVAL_KEY, "700"));

    assertThat(settings.forLongRunning().overrides())
        .containsEntry(HBaseRuntime.REPORT_INTERVAL_KEY, "700");
  }
}
