package org.casebook.tsdb;

/**
 * What an aggregator assumes for a series that has no point at the timestamp being aggregated while
 * it is between two of its points (OpenTSDB 2.4 {@code Aggregators.Interpolation}).
 */
enum Interpolation {
  /** Linear interpolation between the point before and the point after. */
  LERP,
  /** Zero if missing. */
  ZIM,
  /** The type's largest value if missing ({@code Long.MAX_VALUE} or {@code Double.MAX_VALUE}). */
  MAX,
  /** The type's smallest value ({@code Long.MIN_VALUE} or {@code -Double.MAX_VALUE}). */
  MIN,
  /** The series' previous value. */
  PREV
}
