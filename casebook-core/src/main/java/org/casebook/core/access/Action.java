package org.casebook.core.access;

import java.util.Locale;
import org.casebook.core.InvalidInputException;

/**
 * What a request does to a system, in rising power: each level includes the ones below it. {@code
 * ADMIN} is what cannot be undone or touches every record: deletes of whole users or files, purges,
 * backups and restores, schema changes.
 */
public enum Action {
  /** Nothing: only in grants, to close one system under a wider {@code *} grant. */
  NONE,
  READ,
  WRITE,
  ADMIN;

  /** The lower-case name used in access files, audit entries and answers. */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** True when holding this level allows {@code needed}. */
  public boolean covers(Action needed) {
    return compareTo(needed) >= 0;
  }

  /**
   * {@code none}, {@code read}, {@code write} or {@code admin}; anything else is a 400 naming
   * {@code field}.
   */
  public static Action parse(String text, String field) {
    for (Action a : values()) {
      if (a.label().equals(text)) {
        return a;
      }
    }
    throw new InvalidInputException(
        field, "must be none, read, write or admin, not \"" + text + "\"");
  }
}
