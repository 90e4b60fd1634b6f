package org.casebook.tsdb;

import org.casebook.core.InvalidInputException;

/**
 * Options of a rate conversion (OpenTSDB 2.4 {@code RateOptions}, JSON {@code rateOptions}).
 *
 * @param counter the values are monotonic counters that may roll over or reset
 * @param counterMax the value at which a counter rolls over (JSON {@code counterMax})
 * @param resetValue if &gt; 0, a counter rate above it is reported as 0 (JSON {@code resetValue})
 * @param dropResets drop the point where a counter went down instead (JSON {@code dropResets})
 */
record RateOptions(boolean counter, long counterMax, long resetValue, boolean dropResets) {

  /** Options when none are given. */
  static final RateOptions DEFAULT = new RateOptions(false, Long.MAX_VALUE, 0, false);

  /**
   * Parses the {@code rate} part of an {@code m=} query: {@code rate}, {@code rate{counter}},
   * {@code rate{counter,max}}, {@code rate{counter,max,reset}} or {@code rate{dropcounter,...}}
   * (OpenTSDB {@code QueryRpc.parseRateOptions}: the flag is a counter when it ends with "counter",
   * an empty max or reset keeps the default).
   */
  static RateOptions parseM(String spec) {
    if (spec.length() == 4) {
      return DEFAULT;
    }
    if (spec.length() < 6) {
      throw new InvalidInputException("m", "Invalid rate options specification: " + spec);
    }
    String[] parts = SubQuery.split(spec.substring(5, spec.length() - 1), ',');
    if (parts.length > 3) {
      throw new InvalidInputException(
          "m",
          "Incorrect number of values in rate options specification, must be "
              + "counter[,counter max value,reset value], recieved: "
              + parts.length
              + " parts");
    }
    boolean counter = parts[0].endsWith("counter");
    long max;
    try {
      max = parts.length >= 2 && !parts[1].isEmpty() ? Long.parseLong(parts[1]) : Long.MAX_VALUE;
    } catch (NumberFormatException e) {
      throw new InvalidInputException(
          "m", "Max value of counter was not a number, received '" + parts[1] + "'");
    }
    long reset;
    try {
      reset = parts.length >= 3 && !parts[2].isEmpty() ? Long.parseLong(parts[2]) : 0;
    } catch (NumberFormatException e) {
      throw new InvalidInputException(
          "m", "Reset value of counter was not a number, received '" + parts[2] + "'");
    }
    return new RateOptions(counter, max, reset, parts[0].equals("dropcounter"));
  }
}
