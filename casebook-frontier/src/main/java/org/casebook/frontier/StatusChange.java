package org.casebook.frontier;

/**
 * The write of a URL's known row, made only if it is still at {@code expectedVersion} (null: no row
 * yet): the new version, stored URL and due time, and the priority of its queued row (null: done,
 * the priority removed). {@code createdMs} is written only with a new row: a URL keeps the date it
 * was first stored. {@code earlier} are the versions the row keeps of the writes before it.
 */
record StatusChange(
    UrlRef url,
    Long expectedVersion,
    long version,
    byte[] info,
    Long priority,
    long dueMs,
    long createdMs,
    long[] earlier) {}
