package org.casebook.core.settings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.casebook.core.InvalidInputException;
import org.casebook.core.LocalFileException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SettingSourcesTest {
  static final Setting<Integer> BUCKETS = Setting.ofInt("salt-buckets", 0, 0, 256, "salt buckets");
  static final Setting<Integer> TAGS = Setting.ofInt("max-tags", 8, 1, 32, "most tags");
  static final Setting<Boolean> STRICT = Setting.ofBoolean("strict", false, "refuse more");
  static final Setting<ZoneId> ZONE = Setting.ofZone("zone", ZoneId.of("UTC"), "files' zone");
  static final List<Setting<?>> DECLARED = List.of(BUCKETS, TAGS, STRICT, ZONE);

  @TempDir Path dir;

  @Test
  void aLaterSourceWinsOverAnEarlierOne() throws Exception {
    Path file = dir.resolve("casebook.properties");
    Files.writeString(file, "# file\ntsdb.salt-buckets=4\ntsdb.max-tags=12\ntsdb.strict=true\n");
    SettingSources sources =
        SettingSources.of(
            Optional.of(file),
            true,
            Map.of("CASEBOOK_TSDB_MAX_TAGS", "16", "CASEBOOK_TSDB_STRICT", "false", "PATH", "/bin"),
            Map.of("tsdb.strict", "true"));
    SystemSettings s = sources.resolve("tsdb", DECLARED);

    assertThat(s.get(BUCKETS)).isEqualTo(4);
    assertThat(s.get(TAGS)).isEqualTo(16);
    assertThat(s.get(STRICT)).isTrue();
    assertThat(s.get(ZONE)).isEqualTo(ZoneId.of("UTC"));
    assertThat(s.values())
        .extracting(SettingValue::key, SettingValue::source, SettingValue::origin)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(
                "tsdb.salt-buckets", SettingSource.FILE, file.toString()),
            org.assertj.core.groups.Tuple.tuple(
                "tsdb.max-tags", SettingSource.ENVIRONMENT, "CASEBOOK_TSDB_MAX_TAGS"),
            org.assertj.core.groups.Tuple.tuple(
                "tsdb.strict", SettingSource.COMMAND_LINE, "--set tsdb.strict"),
            org.assertj.core.groups.Tuple.tuple("tsdb.zone", SettingSource.DEFAULT, ""));
  }

  @Test
  void defaultsWithoutSources() {
    SystemSettings s = SystemSettings.defaults("tsdb", DECLARED);
    assertThat(s.get(TAGS)).isEqualTo(8);
    assertThat(s.values()).allMatch(v -> v.source() == SettingSource.DEFAULT);
  }

  @Test
  void aBadValueNamesItsKeyAndWhereItCameFrom() {
    SettingSources sources =
        SettingSources.of(
            Optional.empty(), false, Map.of("CASEBOOK_TSDB_MAX_TAGS", "lots"), Map.of());
    assertThatThrownBy(() -> sources.resolve("tsdb", DECLARED))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("tsdb.max-tags (from CASEBOOK_TSDB_MAX_TAGS) must be an integer")
        .extracting(e -> ((InvalidInputException) e).field())
        .isEqualTo("tsdb.max-tags");
    SettingSources outOfRange =
        SettingSources.of(Optional.empty(), false, Map.of(), Map.of("tsdb.salt-buckets", "300"));
    assertThatThrownBy(() -> outOfRange.resolve("tsdb", DECLARED))
        .hasMessageContaining("must be 0..256, got 300");
    SettingSources zone =
        SettingSources.of(Optional.empty(), false, Map.of(), Map.of("tsdb.zone", "Mars/Olympus"));
    assertThatThrownBy(() -> zone.resolve("tsdb", DECLARED))
        .hasMessageContaining("must be a time zone");
  }

  @Test
  void aKeyNoSystemDeclaresIsRefused() throws Exception {
    Map<String, List<Setting<?>>> declared = Map.of("tsdb", DECLARED);
    SettingSources set =
        SettingSources.of(Optional.empty(), false, Map.of(), Map.of("tsdb.max-tag", "3"));
    assertThatThrownBy(() -> set.checkKnown(declared))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("unknown setting 'tsdb.max-tag' in --set")
        .hasMessageContaining("tsdb.max-tags");
    Path file = dir.resolve("s.properties");
    Files.writeString(file, "weibo.fanout-threshold=5\n");
    SettingSources fromFile = SettingSources.of(Optional.of(file), true, Map.of(), Map.of());
    assertThatThrownBy(() -> fromFile.checkKnown(declared))
        .hasMessageContaining("unknown setting 'weibo.fanout-threshold' in " + file);
    // The environment holds other programs' variables: unknown names there are not an error.
    SettingSources.of(Optional.empty(), false, Map.of("CASEBOOK_TSDB_NOPE", "1"), Map.of())
        .checkKnown(declared);
  }

  @Test
  void aMissingFileIsAnErrorOnlyWhenNamed() {
    Path missing = dir.resolve("missing.properties");
    assertThat(SettingSources.of(Optional.of(missing), false, Map.of(), Map.of()).file()).isEmpty();
    assertThatThrownBy(() -> SettingSources.of(Optional.of(missing), true, Map.of(), Map.of()))
        .isInstanceOf(LocalFileException.class);
  }

  @Test
  void keysAndVariablesFollowTheSystemAndName() {
    assertThat(BUCKETS.key("tsdb")).isEqualTo("tsdb.salt-buckets");
    assertThat(BUCKETS.environmentVariable("tsdb")).isEqualTo("CASEBOOK_TSDB_SALT_BUCKETS");
    assertThatThrownBy(() -> Setting.ofInt("Bad_Name", 1, 0, 2, "x"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Setting.ofInt("x", 5, 0, 2, "x"))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
