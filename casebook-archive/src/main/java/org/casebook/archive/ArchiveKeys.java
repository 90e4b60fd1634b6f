package org.casebook.archive;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.casebook.core.key.KeyLayout;
import org.casebook.core.key.KeyLayout.PartType;

/**
 * Seed 001's row-key rule as declared layouts, for one {@link Layout} (R is chosen at run time, so
 * the layouts are built per R and kept):
 *
 * <pre>
 * user          region id (2 bytes, MD5(uid) mod R) | uid (string)                   rule (2)
 * status        region id (2 bytes, MD5(uid) mod R) | uid (string) | MAX - status id  rule (1), newest first
 * status_index  region id of the status id (2 bytes) | status id (long)               → uid
 * </pre>
 *
 * The tables are pre-split at region ids 1..R-1, so a user and all of its statuses sit in exactly
 * one pre-created region — and so does every HFile the bulk load writes for it. Without the key
 * rule (the experiment's cases 1 and 2) the user and status keys have no region id and the index's
 * region id is always 0 (one region).
 */
record ArchiveKeys(KeyLayout user, KeyLayout status, KeyLayout index) {
  static final String UID = "uid";
  static final String STATUS_ID = "statusId";
  private static final Map<Layout, ArchiveKeys> BY_LAYOUT = new ConcurrentHashMap<>();

  static ArchiveKeys of(Layout layout) {
    return BY_LAYOUT.computeIfAbsent(layout, ArchiveKeys::build);
  }

  private static ArchiveKeys build(Layout layout) {
    int r = layout.regions();
    if (!layout.keyRule()) {
      return new ArchiveKeys(
          KeyLayout.named("archive.user.plain").part(UID, PartType.STRING).build(),
          KeyLayout.named("archive.status.plain")
              .part(UID, PartType.STRING)
              .part(STATUS_ID, PartType.REVERSE_TIMESTAMP)
              .build(),
          KeyLayout.named("archive.status_index.plain")
              .regionId("region", 1, STATUS_ID)
              .part(STATUS_ID, PartType.LONG)
              .build());
    }
    return new ArchiveKeys(
        KeyLayout.named("archive.user")
            .regionId("region", r, UID)
            .part(UID, PartType.STRING)
            .build(),
        KeyLayout.named("archive.status")
            .regionId("region", r, UID)
            .part(UID, PartType.STRING)
            .part(STATUS_ID, PartType.REVERSE_TIMESTAMP)
            .build(),
        KeyLayout.named("archive.status_index")
            .regionId("region", r, STATUS_ID)
            .part(STATUS_ID, PartType.LONG)
            .build());
  }

  List<KeyLayout> all() {
    return List.of(user, status, index);
  }

  /**
   * The layouts the descriptor lists: the key rule's (R = 8 as the example; an archive's R is in
   * {@code meta}), the plain ones, the qualifiers and the import-job rows.
   */
  static List<KeyLayout> declared() {
    ArchiveKeys rule = of(new Layout(8, true));
    ArchiveKeys plain = of(new Layout(1, false));
    return List.of(
        rule.user,
        rule.status,
        rule.index,
        plain.user,
        plain.status,
        plain.index,
        RELATION,
        STATUS_QUALIFIER,
        IMPORT_ROW,
        EXPERIMENT_ROW);
  }

  /** The relationship qualifier: kind ('F' follower, 'T' friend) | account id. */
  static final KeyLayout RELATION =
      KeyLayout.named("archive.relation")
          .part("kind", PartType.BYTE)
          .part("id", PartType.STRING)
          .build();

  /** Row of a finished import job in {@code meta}: newest first, then the job id. */
  static final KeyLayout IMPORT_ROW =
      KeyLayout.named("archive.meta.import")
          .part("startedAt", PartType.REVERSE_TIMESTAMP)
          .part("job", PartType.STRING)
          .build();

  /**
   * Row of a recorded {@code bench archive} result in {@code meta}: the word {@code experiment},
   * then newest first. The word keeps these rows in one bounded range apart from the layout and
   * import rows.
   */
  static final KeyLayout EXPERIMENT_ROW =
      KeyLayout.named("archive.meta.experiment")
          .part("kind", PartType.STRING)
          .part("recordedAt", PartType.REVERSE_TIMESTAMP)
          .build();

  static final String EXPERIMENT_KIND = "experiment";

  /**
   * The {@code statuses_id} qualifier of a user row: the status id's 8 big-endian bytes (the seed's
   * {@code Bytes.toBytes(id)}, kept so existing archives stay readable).
   */
  static final KeyLayout STATUS_QUALIFIER =
      KeyLayout.named("archive.statuses_id").fixed(STATUS_ID, 8).build();
}
