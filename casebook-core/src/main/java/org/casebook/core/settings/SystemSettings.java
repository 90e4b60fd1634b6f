package org.casebook.core.settings;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** The effective values of one system's declared settings, each with its source. */
public final class SystemSettings {
  private final String scope;
  private final Map<Setting<?>, SettingValue> values;

  SystemSettings(String scope, List<SettingValue> values) {
    this.scope = Objects.requireNonNull(scope, "scope is null");
    Map<Setting<?>, SettingValue> m = new LinkedHashMap<>();
    for (SettingValue v : values) {
      m.put(v.setting(), v);
    }
    this.values = m;
  }

  /** Every declared setting at its default: what a test or a tool without sources gets. */
  public static SystemSettings defaults(String scope, List<Setting<?>> declared) {
    return SettingSources.none().resolve(scope, declared);
  }

  /**
   * These settings when they hold every one of {@code declared} (a system's own context), else
   * {@code declared} at their defaults: what a system's Java API gets on a tool's context (a
   * benchmark's), which declares none of them.
   */
  public SystemSettings orDefaults(String scope, List<Setting<?>> declared) {
    return values.keySet().containsAll(declared) ? this : defaults(scope, declared);
  }

  public String scope() {
    return scope;
  }

  /** The value of {@code setting}, which the system must have declared. */
  public <T> T get(Setting<T> setting) {
    SettingValue v = values.get(setting);
    if (v == null) {
      throw new IllegalArgumentException(
          setting.key(scope) + " is not a declared setting of " + scope);
    }
    @SuppressWarnings("unchecked") // put under its own Setting<T> by resolve, so the value is a T
    T value = (T) v.value();
    return value;
  }

  /** Every setting in declaration order. */
  public List<SettingValue> values() {
    return List.copyOf(values.values());
  }
}
