package org.casebook.frontier;

/**
 * The write of a URL's known row, made only if it is still at {@code expectedVersion} (null: no row
 * yet): the new version, stored URL and due time, and the priority of its queued row (null: done,
 * the priority removed).
 */
record StatusChange(
    UrlRef url, Long expectedVersion, long version, byte[] info, Long priority, long dueMs) {}
