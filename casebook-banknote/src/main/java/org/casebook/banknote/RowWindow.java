package org.casebook.banknote;

import java.util.Objects;

/**
 * What one read of a listing takes, as a value: the rows from {@code start} (or from just after it,
 * when {@code startInclusive} is false, as a cursor resumes) up to {@code stop} (exclusive), at
 * most {@code limit} of them. The service plans these; the store reads them.
 */
// Keys are byte arrays; a window is handed from the planner to the store, never compared or hashed.
@SuppressWarnings("ArrayRecordComponent")
record RowWindow(byte[] start, boolean startInclusive, byte[] stop, int limit) {
  RowWindow {
    Objects.requireNonNull(start, "start is null");
    Objects.requireNonNull(stop, "stop is null");
    if (limit < 1) {
      throw new IllegalArgumentException("limit must be positive, got " + limit);
    }
  }
}
