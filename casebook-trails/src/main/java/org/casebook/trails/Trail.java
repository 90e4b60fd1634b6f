package org.casebook.trails;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** A user's trail in time order. */
public record Trail(String uid, List<Event> events) {
  public Trail {
    events = List.copyOf(events);
  }

  public Set<Behaviour> behaviours() {
    Set<Behaviour> s = new HashSet<>();
    events.forEach(e -> s.add(e.type()));
    return s;
  }

  /** Whether the trail holds all four behaviours of seed 000 (the seed-000 task's test). */
  public boolean hasAllBuiltIns() {
    return behaviours().containsAll(Behaviour.BUILT_INS);
  }
}
