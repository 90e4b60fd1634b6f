package org.casebook.archive;

import org.casebook.core.InvalidInputException;
import org.casebook.core.key.KeyRange;

/**
 * How an archive namespace keys its rows: R regions, with or without seed 001's key rule (the rule
 * is off only for the experiment's cases 1 and 2). Keys are built and read through {@link
 * ArchiveKeys}' layouts for this R.
 */
public record Layout(int regions, boolean keyRule) {
  public Layout {
    InvalidInputException.check(
        regions >= 1 && regions <= 65536, "regions", "regions must be 1..65536");
  }

  private ArchiveKeys keys() {
    return ArchiveKeys.of(this);
  }

  byte[] userRow(String uid) {
    return keys().user().encode(uid);
  }

  byte[] statusRow(String uid, long statusId) {
    return keys().status().encode(uid, statusId);
  }

  /** Every status row of {@code uid} (they share the user-row prefix). */
  KeyRange statusesOf(String uid) {
    return keys().status().range(uid);
  }

  long statusIdOf(byte[] row) {
    return keys().status().decode(row).number(ArchiveKeys.STATUS_ID);
  }

  byte[] indexRow(long statusId) {
    return keys().index().encode(statusId);
  }
}
