package org.casebook.banknote;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Locale;
import org.casebook.core.Ids;
import org.casebook.core.InvalidInputException;

/**
 * One entry of the watch list, validated on construction (an {@link InvalidInputException} names
 * the field).
 *
 * <p>The pattern is a serial in which {@code ?} stands for any one character; it matches serials of
 * its own length only. {@code *} is not a wildcard: it is a serial character (a US star note's),
 * and a prefix run is written with one {@code ?} a position ({@code AB12??????}).
 *
 * @param id derived from the pattern and denomination, so adding the same entry again replaces it
 * @param denomination the entry matches notes of this denomination only, or any when null
 * @param note why the bank watches it
 */
public record WatchEntry(
    String id, String pattern, Integer denomination, String note, String addedBy, Instant added) {
  public static final char ANY = '?';

  /** Fewer fixed characters would mark a large share of all notes as hits. */
  static final int MIN_FIXED = 4;

  static final int MAX_NOTE = 500;

  public WatchEntry {
    pattern = pattern(pattern);
    InvalidInputException.check(
        denomination == null || (denomination >= 1 && denomination <= 10_000),
        "denomination",
        "denomination must be 1..10000 when given");
    InvalidInputException.check(
        note != null && !note.isBlank() && note.length() <= MAX_NOTE,
        "note",
        "note (the reason) is required, at most " + MAX_NOTE + " characters");
    InvalidInputException.check(
        note.chars().noneMatch(Character::isISOControl), "note", "note has a control character");
    Ids.check(addedBy, "addedBy", NoteRules.MAX_ID);
    InvalidInputException.check(added != null, "added", "added is required");
    // Kept to the millisecond, as stored: an entry read back equals the one added.
    added = added.truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
    InvalidInputException.check(
        id != null && id.equals(id(pattern, denomination)), "id", "id does not fit the pattern");
  }

  /** A new entry, its id derived from pattern and denomination. */
  public static WatchEntry of(
      String pattern, Integer denomination, String note, String addedBy, Instant added) {
    String p = pattern(pattern);
    return new WatchEntry(id(p, denomination), p, denomination, note, addedBy, added);
  }

  /** Whether the pattern holds a wildcard (else it is one exact serial). */
  public boolean wildcard() {
    return pattern.indexOf(ANY) >= 0;
  }

  /** Whether {@code denomination} is one this entry watches. */
  boolean watches(int noteDenomination) {
    return denomination == null || denomination == noteDenomination;
  }

  /** The pattern as stored: a serial's rules, letters upper-cased, {@code ?} a wildcard. */
  static String pattern(String raw) {
    InvalidInputException.check(raw != null && !raw.isEmpty(), "pattern", "pattern is required");
    int n = raw.length();
    if (n < NoteRules.MIN_SERIAL || n > NoteRules.MAX_SERIAL) {
      throw new InvalidInputException(
          "pattern",
          "pattern must have "
              + NoteRules.MIN_SERIAL
              + " to "
              + NoteRules.MAX_SERIAL
              + " characters (one per serial position), got "
              + n);
    }
    int fixed = 0;
    for (int i = 0; i < n; i++) {
      char c = raw.charAt(i);
      InvalidInputException.check(
          c >= 0x21 && c <= 0x7E,
          "pattern",
          "pattern may hold only printable ASCII characters and ?");
      if (c != ANY) {
        fixed++;
      }
    }
    InvalidInputException.check(
        fixed >= MIN_FIXED,
        "pattern",
        "pattern must fix at least " + MIN_FIXED + " characters, got " + fixed);
    return raw.toUpperCase(Locale.ROOT);
  }

  static String id(String pattern, Integer denomination) {
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      sha.update(pattern.getBytes(StandardCharsets.US_ASCII));
      sha.update((byte) 0);
      sha.update(String.valueOf(denomination).getBytes(StandardCharsets.US_ASCII));
      byte[] d = sha.digest();
      return "w" + HexFormat.of().formatHex(d, 0, 8);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JVM has SHA-256", e);
    }
  }
}
