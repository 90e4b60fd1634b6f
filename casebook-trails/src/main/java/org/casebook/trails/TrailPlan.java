package org.casebook.trails;

import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * How a trail query reads HBase, as a value: the planner ({@link TrailPlanner}) decides, the store
 * ({@link EventStore#read}) executes. GETS lists every row to fetch with the fields wanted from it;
 * SCAN lists one bounded day range per user.
 */
record TrailPlan(Kind kind, List<RowGet> gets, List<UserScan> scans) {
  enum Kind {
    GETS,
    SCAN
  }

  /**
   * One events row (user, day, behaviour) and the fields whose column prefixes are fetched from it
   * ({@code MultipleColumnPrefixFilter}); every column when {@code fields} is empty.
   */
  record RowGet(String uid, int day, Behaviour behaviour, List<String> fields) {
    RowGet {
      fields = List.copyOf(fields);
    }
  }

  /**
   * One user's rows from {@code firstDay} to {@code lastDay} (contiguous in the events table),
   * keeping rows of {@code types} and, when {@code fields} is not empty, only those columns.
   */
  record UserScan(
      String uid, int firstDay, int lastDay, Set<Behaviour> types, List<String> fields) {
    UserScan {
      types = Set.copyOf(types);
      fields = List.copyOf(fields);
    }
  }

  TrailPlan {
    Objects.requireNonNull(kind, "kind is null");
    gets = List.copyOf(gets);
    scans = List.copyOf(scans);
  }

  static TrailPlan gets(List<RowGet> gets) {
    return new TrailPlan(Kind.GETS, gets, List.of());
  }

  static TrailPlan scans(List<UserScan> scans) {
    return new TrailPlan(Kind.SCAN, List.of(), scans);
  }
}
