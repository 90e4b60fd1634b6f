package org.casebook.trails;

import java.time.LocalDate;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.casebook.core.Ids;
import org.casebook.core.InvalidInputException;

/**
 * Users × a day range × behaviours (seed 000 §3.2): which rows to read (every behaviour, built-in
 * and declared, when {@code types} is empty), and which fields (all when empty). Days are UTC
 * dates, inclusive, between {@link #FIRST_DATE} and {@link #LAST_DATE}.
 */
public record TrailQuery(
    List<String> users, LocalDate from, LocalDate to, Set<Behaviour> types, Set<String> fields) {
  public static final int MAX_USERS = 10_000;
  public static final int MAX_DAYS = 366;

  /**
   * Dates a query may name: the epoch day stays a small int, so no far-future date can wrap a key
   * part.
   */
  public static final LocalDate FIRST_DATE = LocalDate.of(1970, 1, 1);

  public static final LocalDate LAST_DATE = LocalDate.of(9999, 12, 31);

  public TrailQuery {
    Objects.requireNonNull(users, "users is null");
    checkRange(from, to);
    // A user named twice is one user: every plan then reads and answers each user once.
    users = List.copyOf(new java.util.LinkedHashSet<>(users));
    types = types == null ? Set.of() : Set.copyOf(types);
    fields = fields == null ? Set.of() : Set.copyOf(fields);
    InvalidInputException.check(!users.isEmpty(), "users", "at least one user is required");
    InvalidInputException.check(
        users.size() <= MAX_USERS, "users", "at most " + MAX_USERS + " users per query");
    users.forEach(u -> Ids.check(u, "users", Event.MAX_UID_CHARS));
    if (!types.isEmpty()) {
      checkFields(fields, types);
    }
  }

  /** The behaviours this query reads out of {@code known}: its types, or every one. */
  public Collection<Behaviour> typesIn(Behaviours known) {
    return types.isEmpty() ? known.all() : types;
  }

  /** Every field asked for belongs to one of {@code types}, else a 400 on {@code fields}. */
  void checkFields(Collection<Behaviour> types) {
    checkFields(fields, types);
  }

  private static void checkFields(Set<String> fields, Collection<Behaviour> types) {
    for (String f : fields) {
      boolean known = types.stream().anyMatch(b -> b.field(f).isPresent());
      InvalidInputException.check(
          known, "fields", "field '" + f + "' belongs to none of the requested types");
    }
  }

  /**
   * A day range a query may name: both dates present and within {@link #FIRST_DATE}..{@link
   * #LAST_DATE}, {@code to} not before {@code from}, at most {@link #MAX_DAYS} days; else a 400
   * naming {@code from} or {@code to}.
   */
  public static void checkRange(LocalDate from, LocalDate to) {
    checkDate(from, "from");
    checkDate(to, "to");
    InvalidInputException.check(!to.isBefore(from), "to", "'to' must not be before 'from'");
    InvalidInputException.check(
        to.toEpochDay() - from.toEpochDay() < MAX_DAYS,
        "to",
        "at most " + MAX_DAYS + " days per query");
  }

  /**
   * {@code date} if present and within {@link #FIRST_DATE}..{@link #LAST_DATE}, else a 400 naming
   * {@code field}.
   */
  public static LocalDate checkDate(LocalDate date, String field) {
    InvalidInputException.check(date != null, field, field + " (YYYY-MM-DD) is required");
    InvalidInputException.check(
        !date.isBefore(FIRST_DATE) && !date.isAfter(LAST_DATE),
        field,
        field + " must be between " + FIRST_DATE + " and " + LAST_DATE + ", got " + date);
    return date;
  }
}
