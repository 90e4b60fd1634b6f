package org.casebook.docs;

import java.util.List;
import org.casebook.core.SystemContext;
import org.casebook.core.settings.Setting;
import org.casebook.core.settings.SystemSettings;

/** What an operator may set for the document store ({@code docs.<name>}). */
final class DocsSettings {
  /** The HBase namespace of the store's tables (a second store, a benchmark's scratch store). */
  static final Setting<String> NAMESPACE =
      Setting.ofNamespace(
          DocsSchema.DEFAULT_NAMESPACE,
          "HBase namespace of the store's tables (registry, by_source, one per type); created when"
              + " missing.");

  /** How long documents are kept, per type; purged hourly by the server. */
  static final Setting<DocsRetention> RETENTION =
      new Setting<>(
          "retention",
          "TYPE=DURATION,... (empty: keep forever)",
          DocsRetention.FOREVER,
          "How long a document is kept after its last change, per type: news=365d,bbs=90d,*=2y"
              + " (* covers every other type; units h, d, w, y). Expired documents are deleted"
              + " with their comments and index entries, hourly by the server and by `docs purge`.",
          DocsRetention::parse);

  /**
   * Whether a bulk {@code index} looks for corrections: the price of recording the re-crawls of
   * corrected documents in their history, paid by every bulk load.
   */
  static final Setting<Boolean> RECRAWL_HISTORY =
      Setting.ofBoolean(
          "recrawl-history",
          true,
          "Whether a bulk index checks its rows for corrections by hand (one existence check per"
              + " 250 documents and table), so that re-crawls of corrected documents merge on the"
              + " single-document path and enter their history. Off: every bulk index is a blind"
              + " write; corrections still survive re-crawls, but bulk re-crawls of corrected"
              + " documents are not in their history.");

  static final List<Setting<?>> ALL = List.of(NAMESPACE, RETENTION, RECRAWL_HISTORY);

  private DocsSettings() {}

  /**
   * The settings of {@code context}: the system's own, or every setting at its default on a context
   * that declares none of them (a tool's, such as a benchmark's, using the Java API).
   */
  static SystemSettings of(SystemContext context) {
    return context.settings().orDefaults(DocsSystem.NAME, ALL);
  }
}
