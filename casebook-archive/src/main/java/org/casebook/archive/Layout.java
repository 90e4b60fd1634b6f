package org.casebook.archive;

import org.casebook.core.key.KeyRange;

/**
 * How an archive namespace keys its rows: R regions, with or without seed 001's key rule
 * (the rule is off only for the experiment's cases 1 and 2).
 */
public record Layout(int regions, boolean keyRule) {
  public Layout {
    if (regions < 1 || regions > 65536) {
      throw new IllegalArgumentException("regions must be 1..65536");
    }
  }

  byte[] userRow(String uid) {
    return keyRule ? ArchiveKeys.user(uid, regions) : ArchiveKeys.plainUser(uid);
  }

  byte[] statusRow(String uid, long statusId) {
    return keyRule ? ArchiveKeys.status(uid, statusId, regions) : ArchiveKeys.plainStatus(uid, statusId);
  }

  KeyRange statusesOf(String uid) {
    return KeyRange.prefix(userRow(uid));
  }

  long statusIdOf(byte[] row) {
    if (keyRule) {
      return ArchiveKeys.statusIdOf(row);
    }
    org.casebook.core.key.KeyReader r = new org.casebook.core.key.KeyReader(row);
    r.skipBytes();
    return r.readReverseTimestamp();
  }

  byte[] indexRow(long statusId) {
    return ArchiveKeys.statusIndex(statusId, keyRule ? regions : 1);
  }
}
