package org.casebook.docs;

import java.util.List;
import java.util.regex.Pattern;
import org.casebook.core.SystemContext;
import org.casebook.core.settings.Setting;
import org.casebook.core.settings.SystemSettings;

/** What an operator may set for the document store ({@code docs.<name>}). */
final class DocsSettings {
  private static final Pattern NAMESPACE_NAME = Pattern.compile("[a-z][a-z0-9_]{0,63}");

  /** The HBase namespace of the store's tables (a second store, a benchmark's scratch store). */
  static final Setting<String> NAMESPACE =
      Setting.ofText(
          "namespace",
          DocsSchema.DEFAULT_NAMESPACE,
          "HBase namespace",
          "HBase namespace of the store's tables (registry, by_source, one per type); created when"
              + " missing.",
          DocsSettings::namespace);

  static final List<Setting<?>> ALL = List.of(NAMESPACE);

  private DocsSettings() {}

  private static String namespace(String value) {
    String v = value.strip();
    if (!NAMESPACE_NAME.matcher(v).matches()) {
      throw new IllegalArgumentException(
          "must be 1-64 of a-z, 0-9, _ starting with a letter, got '" + value + "'");
    }
    return v;
  }

  /**
   * The settings of {@code context}: the system's own, or every setting at its default on a context
   * that declares none of them (a tool's, such as a benchmark's, using the Java API).
   */
  static SystemSettings of(SystemContext context) {
    SystemSettings settings = context.settings();
    boolean declared = settings.values().stream().anyMatch(v -> ALL.contains(v.setting()));
    return declared ? settings : SystemSettings.defaults(DocsSystem.NAME, ALL);
  }
}
