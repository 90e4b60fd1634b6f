package org.casebook.frontier;

import java.util.List;
import java.util.Objects;

/**
 * A batch of one host's URLs that PurgeURLs removes, written on the host row before any of them is
 * deleted so that a purge cut short is finished, and its counters settled once, by the next one.
 * Written first unarmed (nothing deleted yet: a crash leaves it to be dropped), then armed with
 * only the victims still at the version read: while an armed batch is on the host no other purge
 * deletes there, so a victim gone or put again since was deleted by this batch.
 *
 * @param id the batch's random id: the channel row records it once its counters are settled
 */
record PurgeBatch(long id, boolean armed, List<Victim> victims) {
  /**
   * One URL to remove, its row as read: version, queued row's priority (null when done) and
   * creation time (a row put again after the batch deleted it has another).
   */
  record Victim(byte[] urlId, long version, Long priority, long createdMs) {
    Victim {
      Objects.requireNonNull(urlId, "urlId is null");
    }

    boolean queued() {
      return priority != null;
    }
  }

  PurgeBatch {
    victims = List.copyOf(victims);
  }
}
