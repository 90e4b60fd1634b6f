package org.casebook.docs;

/** The order of a comment listing. */
public enum CommentOrder {
  NEWEST,
  OLDEST
}
