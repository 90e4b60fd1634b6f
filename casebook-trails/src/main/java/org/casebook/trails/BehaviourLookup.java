package org.casebook.trails;

import java.util.Optional;

/**
 * Finds behaviours by label and by id: a fixed snapshot ({@link Behaviours}) or the service's
 * registry ({@link BehaviourRegistry}), which reloads when asked for one it does not know.
 */
public interface BehaviourLookup {
  /** The behaviour of a log line's exact (lower-case) label. */
  Optional<Behaviour> byLabel(String label);

  /** The behaviour of an events row's id. */
  Optional<Behaviour> byId(int id);

  /** The behaviour of an events row's id; an id nobody declared is corrupt data. */
  default Behaviour requireId(int id) {
    return byId(id).orElseThrow(() -> new IllegalStateException("unknown behaviour id " + id));
  }

  /** Every behaviour known now, by id. */
  Behaviours snapshot();
}
