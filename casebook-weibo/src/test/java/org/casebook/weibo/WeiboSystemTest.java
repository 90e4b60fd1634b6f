package org.casebook.weibo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.casebook.core.InvalidInputException;
import org.casebook.core.settings.Setting;
import org.casebook.core.settings.SettingSources;
import org.casebook.core.settings.SystemSettings;
import org.junit.jupiter.api.Test;

class WeiboSystemTest {
  private final List<Setting<?>> declared = new WeiboSystem().descriptor().settings();

  @Test
  void theSettingsKeepTheDocumentedEnvironmentVariables() {
    assertThat(declared)
        .extracting(s -> s.key("weibo"), s -> s.environmentVariable("weibo"))
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("weibo.namespace", "CASEBOOK_WEIBO_NAMESPACE"),
            org.assertj.core.groups.Tuple.tuple(
                "weibo.fanout-threshold", "CASEBOOK_WEIBO_FANOUT_THRESHOLD"),
            org.assertj.core.groups.Tuple.tuple(
                "weibo.backfill-posts", "CASEBOOK_WEIBO_BACKFILL_POSTS"));
  }

  @Test
  void withoutSourcesTheConfigIsTheDefault() {
    assertThat(WeiboSystem.config(SystemSettings.defaults("weibo", declared)))
        .isEqualTo(WeiboConfig.defaults());
  }

  @Test
  void theEnvironmentAndSetTuneTheFeed() {
    SettingSources sources =
        SettingSources.of(
            Optional.empty(),
            false,
            Map.of("CASEBOOK_WEIBO_FANOUT_THRESHOLD", "2000", "CASEBOOK_WEIBO_BACKFILL_POSTS", "7"),
            Map.of("weibo.backfill-posts", "0"));
    assertThat(WeiboSystem.config(sources.resolve("weibo", declared)))
        .isEqualTo(new WeiboConfig(2000, 0));
  }

  @Test
  void theNamespaceMovesTheTables() {
    WeiboSystem system = new WeiboSystem();
    assertThat(system.tables(SystemSettings.defaults("weibo", declared)))
        .extracting(t -> t.name().getNameAsString())
        .containsExactly("weibo:posts", "weibo:inbox", "weibo:relations", "weibo:users");
    SystemSettings moved =
        SettingSources.none()
            .withSet(Map.of("weibo.namespace", "feed_b"))
            .resolve("weibo", declared);
    assertThat(system.tables(moved))
        .extracting(t -> t.name().getNameAsString())
        .containsExactly("feed_b:posts", "feed_b:inbox", "feed_b:relations", "feed_b:users");
  }

  @Test
  void valuesOutsideTheirRangeAreRefused() {
    for (Map<String, String> bad :
        List.of(
            Map.of("weibo.fanout-threshold", "1"),
            Map.of("weibo.backfill-posts", "10001"),
            Map.of("weibo.backfill-posts", "many"),
            Map.of("weibo.namespace", "weibo-2"))) {
      assertThatThrownBy(() -> SettingSources.none().withSet(bad).resolve("weibo", declared))
          .as(bad.toString())
          .isInstanceOf(InvalidInputException.class);
    }
  }
}
