package org.casebook.banknote;

import java.util.List;

/**
 * An impossible history: one serial read as a note of another denomination (or currency) or edition
 * than the reading before it, or read at a branch further from the reading before than a note can
 * travel in the time between. A genuine note never changes its face and travels at most as fast as
 * a plane, so one of the two is probably a counterfeit carrying a genuine note's serial.
 *
 * @param differs what is impossible: {@code denomination}, {@code edition}, {@code place}
 * @param earlier the reading before
 * @param later the reading that contradicts it
 * @param travel the distance and time between the two readings' branches when both have a location
 *     and the branches differ, else null
 */
public record ProbableClone(List<String> differs, Note earlier, Note later, Travel travel) {
  public ProbableClone {
    differs = List.copyOf(differs);
  }

  public ProbableClone(List<String> differs, Note earlier, Note later) {
    this(differs, earlier, later, null);
  }

  /**
   * The way between two readings' branches.
   *
   * @param distanceKm great-circle distance between the branches
   * @param hours time between the readings (0 when read in the same millisecond)
   * @param speedKmh {@code distanceKm / hours}; infinite when {@code hours} is 0
   */
  public record Travel(double distanceKm, double hours, double speedKmh) {
    /**
     * The way of {@code distanceKm} covered in {@code millis}; no time at all is infinitely fast.
     */
    static Travel of(double distanceKm, long millis) {
      double hours = millis / 3_600_000.0;
      return new Travel(
          distanceKm, hours, millis == 0 ? Double.POSITIVE_INFINITY : distanceKm / hours);
    }
  }
}
