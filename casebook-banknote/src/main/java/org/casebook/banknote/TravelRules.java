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
 * <p>Places are compared along the way: each reading at a located branch against the last reading
 * before it at a located branch (a reading where no place is known does not hide a jump between the
 * two around it). A note's way A→B→C is checked as A→B and B→C: if neither leg is too fast, A→C is
 * not either (the distance A→C is at most the sum of the legs, the time is their sum, so its speed
 * is at most the faster leg's), so comparing other pairs would flag nothing more and would name the
 * wrong pair as evidence — but for legs each shorter than {@code minDistanceKm}, which the minimum
 * exempts on purpose.
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
    Note lastLocated = null;
    for (int i = 0; i < oldestFirst.size(); i++) {
      Note later = oldestFirst.get(i);
      Note earlier = i == 0 ? null : oldestFirst.get(i - 1);
      BranchLocation to = located.get(later.branch());
      // The way from the last place known: the reading just before, unless its place is unknown.
      Note from = to == null ? null : lastLocated;
      if (to != null) {
        lastLocated = later;
      }
      boolean faces = earlier != null && (concerns.test(earlier) || concerns.test(later));
      boolean moved =
          from != null
              && !from.branch().equals(later.branch())
              && (concerns.test(from) || concerns.test(later));
      if (faces
          && !earlier.branch().equals(later.branch())
          && (located.get(earlier.branch()) == null || to == null)) {
        unlocated++;
      }
      ProbableClone.Travel travel =
          moved
              ? ProbableClone.Travel.of(
                  located.get(from.branch()).distanceKm(to),
                  later.time().toEpochMilli() - from.time().toEpochMilli())
              : null;
      boolean tooFast = travel != null && impossible(travel);
      List<String> differs = new ArrayList<>(3);
      if (faces) {
        if (earlier.denomination() != later.denomination()
            || !earlier.currency().equals(later.currency())) {
          differs.add("denomination");
        }
        if (earlier.edition() != null
            && later.edition() != null
            && !earlier.edition().equals(later.edition())) {
          differs.add("edition");
        }
      }
      if (from == earlier) {
        if (tooFast) {
          differs.add("place");
        }
        if (!differs.isEmpty()) {
          out.add(new ProbableClone(differs, earlier, later, travel));
        }
      } else {
        // The way came round a reading whose place is unknown: its own evidence pair.
        if (!differs.isEmpty()) {
          out.add(new ProbableClone(differs, earlier, later, null));
        }
        if (tooFast) {
          out.add(new ProbableClone(List.of("place"), from, later, travel));
        }
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
