package org.casebook.server;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Optional;
import org.casebook.core.InvalidInputException;
import org.casebook.core.access.AuditEntry;
import org.casebook.core.access.AuditTable;
import org.casebook.core.http.HttpRequest;
import org.casebook.core.http.HttpResponse;
import org.casebook.core.page.Page;

/** {@code GET /api/audit}: the trail, newest first, for admins. */
final class AuditRoute {
  /** Without {@code from}, the last week: the page an operator opens to see what just happened. */
  private static final Duration DEFAULT_SPAN = Duration.ofDays(7);

  private AuditRoute() {}

  record Entry(
      String time,
      String who,
      String system,
      String action,
      String what,
      String outcome,
      String remote) {
    static Entry of(AuditEntry e) {
      return new Entry(
          e.time().toString(),
          e.who(),
          e.system(),
          e.action().label(),
          e.what(),
          e.outcome(),
          e.remote());
    }
  }

  record Answer(String from, String to, List<Entry> entries, String next) {}

  static HttpResponse list(AuditTable trail, Clock clock, HttpRequest req) {
    Instant to = req.query("to").map(t -> instant(t, "to")).orElse(clock.instant().plusMillis(1));
    Instant from = req.query("from").map(t -> instant(t, "from")).orElse(to.minus(DEFAULT_SPAN));
    Optional<String> who = req.query("who").filter(s -> !s.isBlank());
    Optional<String> system = req.query("system").filter(s -> !s.isBlank());
    Page<AuditEntry> page = trail.list(from, to, who, system, req.page(100));
    return HttpResponse.ok(
        new Answer(
            from.toString(),
            to.toString(),
            page.items().stream().map(Entry::of).toList(),
            page.nextOrNull()));
  }

  private static Instant instant(String text, String field) {
    try {
      return Instant.parse(text);
    } catch (DateTimeParseException e) {
      throw new InvalidInputException(
          field, field + " must be an ISO-8601 instant such as 2026-11-29T06:00:00Z, not " + text);
    }
  }
}
