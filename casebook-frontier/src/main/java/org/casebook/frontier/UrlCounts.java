package org.casebook.frontier;

/** URLs queued and completed (of a channel, or removed with a queue). */
record UrlCounts(long queued, long completed) {
  long total() {
    return queued + completed;
  }
}
