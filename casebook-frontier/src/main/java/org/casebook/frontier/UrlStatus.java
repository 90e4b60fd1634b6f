package org.casebook.frontier;

/**
 * A known URL as stored: its version (changed by every write, so a write can check nothing came
 * between), the stored URL ({@link UrlInfoCodec}), the priority of its queued row (null: done, no
 * queued row), its due time and when it was first stored (ms since the epoch; 0 for a row written
 * before the frontier kept it).
 */
record UrlStatus(long version, byte[] info, Long priority, long dueMs, long createdMs) {
  boolean queued() {
    return priority != null;
  }
}
