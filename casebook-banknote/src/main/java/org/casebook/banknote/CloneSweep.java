package org.casebook.banknote;

import java.util.List;
import java.util.Optional;

/**
 * One page of a branch's day sweep for probable clones: the serials read at the branch that day,
 * each checked against its history; the clones listed are those whose pair holds one of that day's
 * readings at the branch.
 *
 * @param serials distinct serials read at the branch that day
 * @param checked serials checked for this page
 * @param unlocated pairs of this page's serials at two branches not checked for travel because one
 *     branch has no location
 * @param truncated serials of this page whose newest {@link BanknoteService#MAX_CLONE_READINGS}
 *     readings do not reach back before the day: their pairs before that were not checked
 * @param maxSpeedKmh the travel rule's fastest plausible speed, km/h
 * @param minDistanceKm the travel rule's distance below which travel is never flagged, km
 * @param clones the probable clones, by serial, each serial's oldest first
 * @param next the cursor of the next page, empty after the last
 */
public record CloneSweep(
    String branch,
    String day,
    int serials,
    int checked,
    int unlocated,
    int truncated,
    int maxSpeedKmh,
    int minDistanceKm,
    List<ProbableClone> clones,
    Optional<String> next) {
  public CloneSweep {
    clones = List.copyOf(clones);
  }
}
