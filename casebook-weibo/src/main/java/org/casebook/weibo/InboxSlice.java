package org.casebook.weibo;

import java.util.List;

/**
 * A slice of a reader's inbox row, newest first, and (when asked for) every read-merged account
 * they follow: what one round trip to the row returns.
 */
record InboxSlice(List<InboxCell> entries, List<MarkerCell> readMerged) {
  InboxSlice {
    entries = List.copyOf(entries);
    readMerged = List.copyOf(readMerged);
  }
}
