package org.casebook.banknote;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.casebook.core.settings.SystemSettings;

/**
 * The check of a serial's readings for impossible histories: each reading against the one just
 * before it in time. Denomination, currency and edition must not change; and the two branches must
 * be no further apart than {@code maxSpeedKmh} allows in the time between, unless they are closer
 * than {@code minDistanceKm} (branches of one city exchange cash within minutes).
 *
 * <p>Only adjacent readings are compared. A note's way A→B→C is checked as A→B and B→C: if neither
 * leg is too fast, A→C is not either (the distance A→C is at most the sum of the legs, the time is
 * their sum, so its speed is at most the faster leg's), so comparing non-adjacent pairs would flag
 * nothing more and would name the wrong pair as evidence.
 *
 * @param maxSpeedKmh fastest plausible travel of a note, km/h
 * @param minDistanceKm distance below which travel is never flagged, km
 */
record TravelRules(int maxSpeedKmh, int minDistanceKm) {
  static final TravelRules DEFAULTS =
      new TravelRules(
          BanknoteSettings.CLONE_MAX_SPEED_KMH.defaultValue(),
          BanknoteSettings.CLONE_MIN_DISTANCE_KM.defaultValue());

  TravelRules {
    if (maxSpeedKmh < 1 || minDistanceKm < 0) {
      throw new IllegalArgumentException(
          "maxSpeedKmh must be positive and minDistanceKm not negative");
    }
  }

  static TravelRules of(SystemSettings settings) {
    return new TravelRules(
        settings.get(BanknoteSettings.CLONE_MAX_SPEED_KMH),
        settings.get(BanknoteSettings.CLONE_MIN_DISTANCE_KM));
  }

  /** What checking a history found: its clones and the pairs left unchecked for lack of a place. */
  record Found(List<ProbableClone> clones, int unlocated) {}

  /**
   * The probable clones among consecutive pairs of {@code oldestFirst} that {@code concerns} at
   * least one reading of; {@code located} holds the locations of the readings' branches that have
   * one.
   */
  Found check(
      List<Note> oldestFirst, Map<String, BranchLocation> located, Predicate<Note> concerns) {
    List<ProbableClone> out = new ArrayList<>();
    int unlocated = 0;
    for (int i = 1; i < oldestFirst.size(); i++) {
      Note earlier = oldestFirst.get(i - 1);
      Note later = oldestFirst.get(i);
      if (!concerns.test(earlier) && !concerns.test(later)) {
        continue;
      }
      List<String> differs = new ArrayList<>(3);
      if (earlier.denomination() != later.denomination()
          || !earlier.currency().equals(later.currency())) {
        differs.add("denomination");
      }
      if (earlier.edition() != null
          && later.edition() != null
          && !earlier.edition().equals(later.edition())) {
        differs.add("edition");
      }
      ProbableClone.Travel travel = null;
      if (!earlier.branch().equals(later.branch())) {
        BranchLocation from = located.get(earlier.branch());
        BranchLocation to = located.get(later.branch());
        if (from == null || to == null) {
          unlocated++;
        } else {
          travel =
              ProbableClone.Travel.of(
                  from.distanceKm(to), later.time().toEpochMilli() - earlier.time().toEpochMilli());
          if (impossible(travel)) {
            differs.add("place");
          }
        }
      }
      if (!differs.isEmpty()) {
        out.add(new ProbableClone(differs, earlier, later, travel));
      }
    }
    return new Found(out, unlocated);
  }

  /** Too far to cover in the time between (readings in the same instant: any distance too far). */
  boolean impossible(ProbableClone.Travel travel) {
    return travel.distanceKm() > 0
        && travel.distanceKm() >= minDistanceKm
        && travel.speedKmh() > maxSpeedKmh;
  }
}
