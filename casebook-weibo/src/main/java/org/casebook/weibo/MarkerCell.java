package org.casebook.weibo;

import java.util.Objects;

/**
 * A read-merge marker as stored: the reader follows the read-merged account {@code followee}; with
 * the timestamp of its cell for an exact clean-up.
 */
record MarkerCell(String followee, long ts) {
  MarkerCell {
    Objects.requireNonNull(followee, "followee is null");
  }
}
