package org.casebook.weibo;

import java.util.Objects;

/**
 * An inbox entry as stored, with the timestamp of its cell: a clean-up deletes exactly that cell,
 * never one a later back-fill writes with another timestamp.
 */
record InboxCell(InboxEntry entry, long ts) {
  InboxCell {
    Objects.requireNonNull(entry, "entry is null");
  }
}
