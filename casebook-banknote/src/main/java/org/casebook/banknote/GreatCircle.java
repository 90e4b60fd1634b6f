package org.casebook.banknote;

/**
 * Distances on the Earth taken as a sphere of the mean radius (IUGG): the haversine formula, which
 * stays accurate for short distances where the spherical law of cosines loses precision. The sphere
 * differs from the ellipsoid by a fraction of a percent: far less than the margin between a plane
 * and an impossible journey.
 */
final class GreatCircle {
  /** The Earth's mean radius, kilometres (IUGG). */
  static final double EARTH_RADIUS_KM = 6371.0088;

  private GreatCircle() {}

  /** The great-circle distance between two points given in degrees, in kilometres. */
  static double distanceKm(double lat1, double lon1, double lat2, double lon2) {
    double phi1 = Math.toRadians(lat1);
    double phi2 = Math.toRadians(lat2);
    double dPhi = phi2 - phi1;
    double dLambda = Math.toRadians(lon2 - lon1);
    double sinPhi = Math.sin(dPhi / 2);
    double sinLambda = Math.sin(dLambda / 2);
    double h = sinPhi * sinPhi + Math.cos(phi1) * Math.cos(phi2) * sinLambda * sinLambda;
    // Rounding can push h a hair past 1 for antipodal points, where asin is undefined.
    return 2 * EARTH_RADIUS_KM * Math.asin(Math.sqrt(Math.min(1.0, h)));
  }
}
