package org.casebook.docs;

import java.util.Map;

/**
 * One document row as read: its key, its version cell, the newest timestamp in the row (a write
 * over this row takes a version after it), the typed value of each field of the type that it shows,
 * in the type's order (none when only the version cell was read), corrected fields as the person
 * left them, and its corrections cell (null if no person edited it).
 */
@SuppressWarnings("ArrayRecordComponent") // a row key: never compared with equals, never mutated
record StoredRow(
    byte[] row,
    RowState state,
    long maxTimestamp,
    Map<String, Object> values,
    CorrectionState corrections) {
  long version() {
    return state.version();
  }

  boolean live() {
    return state.live();
  }
}
