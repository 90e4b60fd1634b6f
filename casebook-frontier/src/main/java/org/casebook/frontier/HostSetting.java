package org.casebook.frontier;

/**
 * A host's settings an operator or crawler sets: own delay (ms), blocked until (ms), crawl limit.
 */
enum HostSetting {
  DELAY,
  BLOCKED_UNTIL,
  CRAWL_LIMIT
}
