package org.casebook.archive;

import java.util.List;
import org.casebook.core.SystemContext;
import org.casebook.core.settings.Setting;

/**
 * What an operator may set for the archive ({@code archive.<name>}, {@code CASEBOOK_ARCHIVE_…}).
 */
final class ArchiveSettings {
  static final Setting<String> NAMESPACE =
      Setting.ofNamespace(
          ArchiveSchema.DEFAULT_NAMESPACE,
          "HBase namespace of the archive's tables (created on first use when not the default).");

  static final Setting<Integer> HOLD_MB =
      Setting.ofInt(
          "hold-mb",
          64,
          0,
          2048,
          "Input files up to this many MB are parsed once and held as records while checked;"
              + " larger ones are read twice (check, then load), so memory stays bounded.");

  private ArchiveSettings() {}

  static List<Setting<?>> all() {
    return List.of(NAMESPACE, HOLD_MB);
  }

  /**
   * The value of {@code setting} in {@code ctx}: the archive's own context has it; a tool's or a
   * benchmark's context declares no archive settings and gets the default.
   */
  static <T> T valueIn(SystemContext ctx, Setting<T> setting) {
    return ctx.settings().orDefaults(ctx.system(), all()).get(setting);
  }

  /** {@code namespace} if it is one HBase allows; else an {@link IllegalArgumentException}. */
  static String checkNamespace(String namespace) {
    return NAMESPACE.parser().apply(namespace);
  }
}
