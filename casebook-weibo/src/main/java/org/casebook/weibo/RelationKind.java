package org.casebook.weibo;

/** The two rows of one follow: the truth on the follower's side, the derived row on the other. */
enum RelationKind {
  /** {@code uid|FOLLOWING|other}: uid follows other (the truth, changed conditionally). */
  FOLLOWING,
  /** {@code uid|FOLLOWER|other}: other follows uid (derived from the following row). */
  FOLLOWER
}
