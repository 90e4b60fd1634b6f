package org.casebook.core.settings;

import java.util.Objects;

/**
 * One effective setting: its key, its value, and where that came from.
 *
 * @param origin the source in detail: the file's path, the variable's name, {@code --set KEY}, or
 *     empty for a default
 */
public record SettingValue(
    String key, Setting<?> setting, Object value, SettingSource source, String origin) {
  public SettingValue {
    Objects.requireNonNull(key, "key is null");
    Objects.requireNonNull(setting, "setting is null");
    Objects.requireNonNull(value, "value is null");
    Objects.requireNonNull(source, "source is null");
    Objects.requireNonNull(origin, "origin is null");
  }

  /** The value as written in a source. */
  public String text() {
    return setting.render(value);
  }
}
