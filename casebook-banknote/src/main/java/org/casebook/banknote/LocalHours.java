package org.casebook.banknote;

import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.zone.ZoneOffsetTransition;
import java.time.zone.ZoneRules;
import java.util.Objects;

/**
 * The business day (epoch day in the bank's zone) and local hour of note times, for counting every
 * note stored: the zone's arithmetic is done once per local hour, and the notes of a piece (read
 * within minutes of each other) reuse it. Not thread-safe: one per batch of notes.
 */
final class LocalHours {
  private static final long HOUR_MS = 3_600_000L;

  private final ZoneId zone;
  private final ZoneRules rules;

  /** The instants [start, end) that share {@link #day} and {@link #hour}; empty at first. */
  private long start = 1;

  private long end = 0;
  private int day;
  private int hour;

  LocalHours(ZoneId zone) {
    this.zone = Objects.requireNonNull(zone, "zone is null");
    this.rules = zone.getRules();
  }

  /** Moves to the epoch millisecond {@code t}; then {@link #day} and {@link #hour} are its. */
  void at(long t) {
    if (t >= start && t < end) {
      return;
    }
    Instant instant = Instant.ofEpochMilli(t);
    ZonedDateTime local = instant.atZone(zone);
    day = Math.toIntExact(local.toLocalDate().toEpochDay());
    hour = local.getHour();
    // The instants since the local hour began, bounded by the zone's offset changes: across one the
    // local hour may differ although fewer than 60 minutes passed.
    long since =
        (local.getMinute() * 60L + local.getSecond()) * 1000L + local.getNano() / 1_000_000;
    long s = t - since;
    long e = s + HOUR_MS;
    ZoneOffsetTransition previous = rules.previousTransition(Instant.ofEpochMilli(t + 1));
    if (previous != null) {
      s = Math.max(s, previous.getInstant().toEpochMilli());
    }
    ZoneOffsetTransition next = rules.nextTransition(instant);
    if (next != null) {
      e = Math.min(e, next.getInstant().toEpochMilli());
    }
    start = s;
    end = e;
  }

  int day() {
    return day;
  }

  int hour() {
    return hour;
  }
}
