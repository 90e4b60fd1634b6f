package org.casebook.docs;

import java.util.Map;

/**
 * One document row as read: its key, its version cell, the newest timestamp in the row (a write
 * over this row takes a version after it) and the typed value of each field of the type that it
 * shows, in the type's order (none when only the version cell was read).
 */
@SuppressWarnings("ArrayRecordComponent") // a row key: never compared with equals, never mutated
record StoredRow(byte[] row, RowState state, long maxTimestamp, Map<String, Object> values) {
  long version() {
    return state.version();
  }

  boolean live() {
    return state.live();
  }
}
