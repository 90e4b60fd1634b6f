package org.casebook.frontier;

/**
 * A known URL as stored: its version (changed by every write, so a write can check nothing came
 * between), the stored URL ({@link UrlInfoCodec}), the priority of its queued row (null: done, no
 * queued row) and its due time.
 */
record UrlStatus(long version, byte[] info, Long priority, long dueMs) {
  boolean queued() {
    return priority != null;
  }
}
