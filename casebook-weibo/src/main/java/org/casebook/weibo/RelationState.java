package org.casebook.weibo;

/**
 * The state of one following row.
 *
 * @param following whether the pair is in state following (a row of an earlier version without a
 *     state column counts as following)
 * @param version the version of its latest change; -1 if none (absent, or written by earlier
 *     versions)
 */
record RelationState(boolean following, long version) {
  /** A pair that never changed. */
  static final RelationState ABSENT = new RelationState(false, -1);
}
