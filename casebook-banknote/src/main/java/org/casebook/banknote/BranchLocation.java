package org.casebook.banknote;

import org.casebook.core.Ids;
import org.casebook.core.InvalidInputException;

/**
 * Where a branch is: its id as the devices report it, its latitude and longitude in degrees (WGS84)
 * and an optional name. Validated on construction; a bad value is an {@link InvalidInputException}
 * naming {@code branch}, {@code lat}, {@code lon} or {@code name}.
 *
 * @param name what people call the branch, or null
 */
public record BranchLocation(String branch, double lat, double lon, String name) {
  /** Longest branch name. */
  public static final int MAX_NAME = 200;

  public BranchLocation {
    Ids.check(branch, "branch", NoteRules.MAX_ID);
    InvalidInputException.check(
        Double.isFinite(lat) && lat >= -90 && lat <= 90,
        "lat",
        "lat must be a latitude in degrees, -90..90, got " + lat);
    InvalidInputException.check(
        Double.isFinite(lon) && lon >= -180 && lon <= 180,
        "lon",
        "lon must be a longitude in degrees, -180..180, got " + lon);
    if (name != null) {
      String problem = Ids.textProblem(name, MAX_NAME, false);
      InvalidInputException.check(problem == null, "name", "name " + problem);
      if (name.isBlank()) {
        name = null;
      }
    }
  }

  /**
   * A location from values that may be missing (a JSON body, a CSV line): a missing latitude or
   * longitude is a 400 naming it.
   */
  public static BranchLocation of(String branch, Double lat, Double lon, String name) {
    InvalidInputException.check(lat != null, "lat", "lat is required (degrees, -90..90)");
    InvalidInputException.check(lon != null, "lon", "lon is required (degrees, -180..180)");
    return new BranchLocation(branch, lat, lon, name);
  }

  /** The great-circle distance to {@code other}, in kilometres. */
  public double distanceKm(BranchLocation other) {
    return GreatCircle.distanceKm(lat, lon, other.lat, other.lon);
  }
}
