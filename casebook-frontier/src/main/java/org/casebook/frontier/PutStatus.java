package org.casebook.frontier;

/**
 * What became of one item put: stored ({@code OK}); refused or a duplicate of a discovered URL
 * ({@code SKIPPED}, not to be sent again); not stored because HBase failed ({@code FAIL}, send it
 * again).
 */
public enum PutStatus {
  OK,
  SKIPPED,
  FAIL
}
