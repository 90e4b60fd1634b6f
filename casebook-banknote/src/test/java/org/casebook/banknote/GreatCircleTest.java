package org.casebook.banknote;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.assertj.core.data.Percentage;
import org.junit.jupiter.api.Test;

class GreatCircleTest {
  private static final double R = GreatCircle.EARTH_RADIUS_KM;

  /** Rosetta Code's haversine task: Nashville (BNA) to Los Angeles (LAX) on its sphere. */
  private static final double ROSETTA_BNA_LAX_KM = 2887.2599506071106;

  private static final double ROSETTA_RADIUS_KM = 6372.8;

  /** The published answer, scaled from its sphere to this one (distance grows with the radius). */
  @Test
  void matchesThePublishedHaversineReference() {
    double published = ROSETTA_BNA_LAX_KM * R / ROSETTA_RADIUS_KM;
    assertThat(GreatCircle.distanceKm(36.12, -86.67, 33.94, -118.40))
        .isCloseTo(published, within(1e-6));
  }

  /** Straight-line distances between city centres as atlases give them, to within one percent. */
  @Test
  void givesKnownCityDistances() {
    assertThat(GreatCircle.distanceKm(39.9042, 116.4074, 43.8256, 87.6168)) // Beijing - Urumqi
        .isCloseTo(2_411, Percentage.withPercentage(1));
    assertThat(GreatCircle.distanceKm(39.9042, 116.4074, 31.2304, 121.4737)) // Beijing - Shanghai
        .isCloseTo(1_067, Percentage.withPercentage(1));
    assertThat(GreatCircle.distanceKm(51.5074, -0.1278, 48.8566, 2.3522)) // London - Paris
        .isCloseTo(344, Percentage.withPercentage(1));
  }

  @Test
  void isZeroAtOnePointSymmetricAndHalfTheCircumferenceAtTheAntipodes() {
    assertThat(GreatCircle.distanceKm(39.9, 116.4, 39.9, 116.4)).isZero();
    assertThat(GreatCircle.distanceKm(39.9, 116.4, 43.8, 87.6))
        .isEqualTo(GreatCircle.distanceKm(43.8, 87.6, 39.9, 116.4));
    assertThat(GreatCircle.distanceKm(0, 0, 90, 0)).isCloseTo(Math.PI * R / 2, within(1e-6));
    assertThat(GreatCircle.distanceKm(0, 0, 0, 180)).isCloseTo(Math.PI * R, within(1e-6));
    assertThat(GreatCircle.distanceKm(-33.87, 151.21, 33.87, -28.79))
        .isCloseTo(Math.PI * R, within(1e-6));
    // Across the date line the short way round: one degree of longitude at the equator.
    assertThat(GreatCircle.distanceKm(0, 179.5, 0, -179.5))
        .isCloseTo(Math.PI * R / 180, within(1e-6));
  }
}
