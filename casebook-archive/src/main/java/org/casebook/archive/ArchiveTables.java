package org.casebook.archive;

import java.util.Map;
import java.util.Objects;
import org.casebook.core.schema.SplitPoints;

/**
 * How to create an archive's data tables: the key {@link Layout} (recorded in {@code meta}, since
 * every key depends on it), the split points of each table, and table-level HBase settings (e.g.
 * {@code MAX_FILESIZE}, {@code SPLIT_POLICY}) for all three. An import creates them {@link
 * #regionIds split at region ids}; an archive made for a data set of known keys may be split where
 * its data falls instead.
 */
public record ArchiveTables(
    Layout layout,
    SplitPoints userSplits,
    SplitPoints statusSplits,
    SplitPoints indexSplits,
    Map<String, String> tableSettings) {
  public ArchiveTables {
    Objects.requireNonNull(layout, "layout is null");
    Objects.requireNonNull(userSplits, "userSplits is null");
    Objects.requireNonNull(statusSplits, "statusSplits is null");
    Objects.requireNonNull(indexSplits, "indexSplits is null");
    tableSettings = Map.copyOf(Objects.requireNonNull(tableSettings, "tableSettings is null"));
  }

  /**
   * Split at region ids 1..R-1 (seed 001 §2.2.1), as an import creates them: with the key rule, a
   * user and its statuses are in one pre-created region, and MD5 spreads users and status ids
   * evenly over the R ids. Without the rule the keys carry no region id (they start with the uid,
   * the index's with id 0), so region-id points would leave every region but one empty: the tables
   * start as one region, to be split where their keys fall ({@link #splitAt}) or by HBase.
   */
  public static ArchiveTables regionIds(Layout layout) {
    SplitPoints s =
        layout.keyRule() && layout.regions() > 1
            ? SplitPoints.regionPrefixes(layout.regions())
            : SplitPoints.none();
    return new ArchiveTables(layout, s, s, s, Map.of());
  }

  /** One region per table; HBase splits them as they grow. */
  public static ArchiveTables unsplit(Layout layout) {
    return new ArchiveTables(
        layout, SplitPoints.none(), SplitPoints.none(), SplitPoints.none(), Map.of());
  }

  /** These tables split at the given points instead. */
  public ArchiveTables splitAt(SplitPoints user, SplitPoints status, SplitPoints index) {
    return new ArchiveTables(layout, user, status, index, tableSettings);
  }

  /** These tables with table-level HBase settings (replacing any given before). */
  public ArchiveTables withTableSettings(Map<String, String> settings) {
    return new ArchiveTables(layout, userSplits, statusSplits, indexSplits, settings);
  }
}
