package org.casebook.core.schema;

/**
 * The lines {@link SchemaManager#ensure} logs and returns for a family it changes in place: what
 * the change does to the files and cells already stored.
 */
final class FamilyChangeNotes {
  private FamilyChangeNotes() {}

  static String ttl(String family, int before, int after) {
    String keeps = "family " + family + " now keeps cells " + lifetime(after);
    if (after < before) {
      return keeps
          + " (was "
          + lifetime(before)
          + "): older cells are no longer read from now on, and the next major compaction removes"
          + " them";
    }
    return keeps
        + " (was "
        + lifetime(before)
        + "): cells that had expired and that no compaction has removed yet are read again";
  }

  /** A TTL in words: "forever", "for 30 days", "for 3600 seconds". */
  static String lifetime(int ttlSeconds) {
    if (ttlSeconds == FamilySpec.FOREVER) {
      return "forever";
    }
    if (ttlSeconds % 86_400 == 0) {
      int days = ttlSeconds / 86_400;
      return "for " + days + (days == 1 ? " day" : " days");
    }
    return "for " + ttlSeconds + " seconds";
  }

  static String retune(String family, String what, Object before, Object after) {
    return "family "
        + family
        + " now "
        + what
        + " "
        + after
        + " (was "
        + before
        + "; files already written keep "
        + before
        + " until a major compaction)";
  }
}
