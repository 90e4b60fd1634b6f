package org.casebook.banknote;

import java.util.List;

/**
 * A serial's impossible readings (see {@link ProbableClone}) and what the check could not see.
 *
 * @param serial the serial checked
 * @param readings how many of its readings were read (the newest, at most {@link
 *     BanknoteService#MAX_CLONE_READINGS})
 * @param unlocated consecutive pairs at two branches not checked for travel because one of the
 *     branches has no declared location
 * @param maxSpeedKmh the fastest a note is taken to travel (the {@code clone-max-speed-kmh}
 *     setting)
 * @param minDistanceKm the distance below which no travel is flagged ({@code
 *     clone-min-distance-km})
 * @param clones the probable clones, oldest first
 */
public record CloneCheck(
    String serial,
    int readings,
    int unlocated,
    int maxSpeedKmh,
    int minDistanceKm,
    List<ProbableClone> clones) {
  public CloneCheck {
    clones = List.copyOf(clones);
  }
}
