package org.casebook.banknote;

/**
 * A note that matched an entry of the watch list when it was stored.
 *
 * @param entry the id of the entry it matched
 * @param pattern that entry's pattern at the time
 */
public record WatchHit(Note note, String entry, String pattern) {}
