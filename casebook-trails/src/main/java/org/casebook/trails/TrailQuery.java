package org.casebook.trails;

import java.time.LocalDate;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.casebook.core.InvalidInputException;

/**
 * Users × a day range × behaviours (seed 000 §3.2): which rows to read, and which fields (all
 * when empty). Days are UTC dates, inclusive.
 */
public record TrailQuery(List<String> users, LocalDate from, LocalDate to, Set<Behaviour> types, Set<String> fields) {
  public static final int MAX_USERS = 10_000;
  public static final int MAX_DAYS = 366;

  public TrailQuery {
    Objects.requireNonNull(users, "users is null");
    Objects.requireNonNull(from, "from is null");
    Objects.requireNonNull(to, "to is null");
    users = List.copyOf(users);
    types = types == null || types.isEmpty() ? Set.of(Behaviour.values()) : Set.copyOf(types);
    fields = fields == null ? Set.of() : Set.copyOf(fields);
    InvalidInputException.check(!users.isEmpty(), "users", "at least one user is required");
    InvalidInputException.check(users.size() <= MAX_USERS, "users", "at most " + MAX_USERS + " users per query");
    for (String u : users) {
      String problem = u == null ? "is missing" : LogParser.textProblem(u, LogParser.MAX_UID_CHARS);
      InvalidInputException.check(problem == null, "users", "user id " + problem);
    }
    InvalidInputException.check(!to.isBefore(from), "to", "'to' must not be before 'from'");
    InvalidInputException.check(to.toEpochDay() - from.toEpochDay() < MAX_DAYS, "to", "at most " + MAX_DAYS + " days per query");
    for (String f : fields) {
      boolean known = types.stream().anyMatch(b -> b.field(f).isPresent());
      InvalidInputException.check(known, "fields", "field '" + f + "' belongs to none of the requested types");
    }
  }
}
