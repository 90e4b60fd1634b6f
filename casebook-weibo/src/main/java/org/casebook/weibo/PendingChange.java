package org.casebook.weibo;

import java.util.Objects;

/**
 * A change of the following row {@code uid|FOLLOWING|target} whose effects may be unfinished (its
 * pending column is still there).
 */
record PendingChange(String uid, String target, long version) {
  PendingChange {
    Objects.requireNonNull(uid, "uid is null");
    Objects.requireNonNull(target, "target is null");
  }
}
