package org.casebook.tsdb;

import org.casebook.core.InvalidInputException;

/**
 * A parsed downsampling specifier {@code interval-function[-fill]} such as {@code 1m-avg}, {@code
 * 5m-sum-zero} or {@code 0all-max} (OpenTSDB 2.4 {@code DownsamplingSpecification}).
 *
 * <p>Intervals are aligned on the epoch ({@code ts - ts % interval}), as OpenTSDB does without
 * {@code useCalendar}; calendar intervals ({@code 1dc}, {@code useCalendar}) are not supported.
 *
 * @param text the specifier as given
 * @param intervalMs the interval, 0 for "all"
 * @param runAll whether the whole query range collapses into one point at the query start
 * @param function the function applied to the values of an interval
 * @param fillPolicy what to emit for intervals without data
 */
record DownsampleSpec(
    String text, long intervalMs, boolean runAll, Aggregator function, FillPolicy fillPolicy) {

  /** Parses like OpenTSDB; errors name {@code field} ("m" or "downsample"). */
  static DownsampleSpec parse(String specification, String field) {
    if (specification == null) {
      throw new InvalidInputException(field, "Downsampling specifier cannot be null");
    }
    // OpenTSDB uses String.split, which drops trailing empty parts: "1m-avg-" is valid there too.
    @SuppressWarnings("StringSplitter")
    String[] parts = specification.split("-");
    if (parts.length < 2) {
      throw new InvalidInputException(
          field,
          "Invalid downsampling specifier '"
              + specification
              + "': must provide at least interval and function");
    }
    if (parts.length > 3) {
      throw new InvalidInputException(
          field,
          "Invalid downsampling specifier '"
              + specification
              + "': must consist of interval, function, and optional fill policy");
    }
    long interval;
    boolean runAll;
    if (parts[0].contains("all")) {
      interval = 0;
      runAll = true;
    } else if (!parts[0].isEmpty() && parts[0].charAt(parts[0].length() - 1) == 'c') {
      throw new InvalidInputException(
          field, "Calendar downsampling is not supported: " + specification);
    } else {
      interval = TsdbDuration.parseMillis(parts[0], field);
      runAll = false;
    }
    Aggregator function =
        Aggregator.byName(parts[1])
            .orElseThrow(
                () ->
                    new InvalidInputException(field, "No such downsampling function: " + parts[1]));
    if (function.function() == Aggregator.Function.NONE) {
      throw new InvalidInputException(field, "cannot use the NONE aggregator for downsampling");
    }
    FillPolicy fill = parts.length == 3 ? FillPolicy.parse(parts[2], field) : FillPolicy.NONE;
    return new DownsampleSpec(specification, interval, runAll, function, fill);
  }

  /** The interval start containing {@code timestampMs}. */
  long align(long timestampMs) {
    return timestampMs - timestampMs % intervalMs;
  }
}
