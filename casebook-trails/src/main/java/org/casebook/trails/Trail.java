package org.casebook.trails;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/** A user's trail in time order. */
public record Trail(String uid, List<Event> events) {
  public Trail {
    events = List.copyOf(events);
  }

  public Set<Behaviour> behaviours() {
    Set<Behaviour> s = EnumSet.noneOf(Behaviour.class);
    events.forEach(e -> s.add(e.type()));
    return s;
  }
}
