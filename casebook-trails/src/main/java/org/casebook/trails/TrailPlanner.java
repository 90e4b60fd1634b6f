package org.casebook.trails;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Turns a {@link TrailQuery} into a {@link TrailPlan}. GETS is seed 000's plan: one Get per (user,
 * day, behaviour), only the requested fields' columns. SCAN reads each user's contiguous day range
 * with one bounded Scan. AUTO scans when every behaviour is wanted (nothing to skip) and uses Gets
 * otherwise.
 */
final class TrailPlanner {
  private TrailPlanner() {}

  /** The plan of {@code q} over the behaviours of {@code known} (every one when it names none). */
  static TrailPlan plan(TrailQuery q, PlanMode mode, Behaviours known) {
    int first = TrailsKeys.epochDay(q.from());
    int last = TrailsKeys.epochDay(q.to());
    Set<Behaviour> types = Set.copyOf(q.typesIn(known));
    q.checkFields(types);
    boolean scan =
        mode == PlanMode.SCAN || (mode == PlanMode.AUTO && types.containsAll(known.all()));
    if (scan) {
      List<String> fields = new ArrayList<>(scanFields(types, q.fields(), known));
      List<TrailPlan.UserScan> scans = new ArrayList<>(q.users().size());
      for (String uid : q.users()) {
        scans.add(new TrailPlan.UserScan(uid, first, last, types, fields));
      }
      return TrailPlan.scans(scans);
    }
    List<TrailPlan.RowGet> gets =
        new ArrayList<>(q.users().size() * (last - first + 1) * types.size());
    for (String uid : q.users()) {
      for (int day = first; day <= last; day++) {
        for (Behaviour b : known.all()) {
          if (types.contains(b)) {
            gets.add(new TrailPlan.RowGet(uid, day, b, fieldsFor(b, q.fields())));
          }
        }
      }
    }
    return TrailPlan.gets(gets);
  }

  /**
   * Every column prefix a scan needs: the union over the wanted behaviours (all columns when none
   * asked).
   */
  private static Set<String> scanFields(
      Set<Behaviour> types, Set<String> requested, Behaviours known) {
    Set<String> out = new LinkedHashSet<>();
    if (!requested.isEmpty()) {
      for (Behaviour b : known.all()) {
        if (types.contains(b)) {
          out.addAll(fieldsFor(b, requested));
        }
      }
    }
    return out;
  }

  /**
   * Requested fields of this behaviour; if none of the requested fields is one of its, its first
   * field, so that its events are still listed (with only that field).
   */
  static List<String> fieldsFor(Behaviour b, Set<String> requested) {
    if (requested.isEmpty()) {
      return List.of();
    }
    List<String> mine =
        b.fields().stream().map(Behaviour.Field::name).filter(requested::contains).toList();
    return mine.isEmpty() ? List.of(b.fields().get(0).name()) : mine;
  }
}
