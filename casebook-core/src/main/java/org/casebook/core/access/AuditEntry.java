package org.casebook.core.access;

import java.time.Instant;
import java.util.Objects;

/**
 * One change, or one refused attempt at one, as the audit trail keeps it.
 *
 * @param time when it was answered
 * @param who the principal ({@code anonymous} without credentials; {@code cli:<user>} from the CLI)
 * @param system the system it was addressed to ({@code platform}: backups and the trail itself)
 * @param action the level the request needed
 * @param what the request: method and path, a protocol's operation, a CLI command
 * @param outcome the answer: an HTTP status, a gRPC status name, {@code ok}, or {@code failed: …}
 * @param remote where it came from (address and port; {@code local} for the CLI)
 */
public record AuditEntry(
    Instant time,
    String who,
    String system,
    Action action,
    String what,
    String outcome,
    String remote) {
  static final int MAX_WHAT = 512;

  private static final java.util.Set<String> REFUSALS =
      java.util.Set.of("401", "403", "UNAUTHENTICATED", "PERMISSION_DENIED");

  /** True when the entry records a refused attempt, not a change. */
  public boolean refused() {
    return REFUSALS.contains(outcome);
  }

  public AuditEntry {
    Objects.requireNonNull(time, "time is null");
    Objects.requireNonNull(who, "who is null");
    Objects.requireNonNull(system, "system is null");
    Objects.requireNonNull(action, "action is null");
    Objects.requireNonNull(what, "what is null");
    Objects.requireNonNull(outcome, "outcome is null");
    Objects.requireNonNull(remote, "remote is null");
    if (what.length() > MAX_WHAT) {
      int end = Character.isHighSurrogate(what.charAt(MAX_WHAT - 1)) ? MAX_WHAT - 1 : MAX_WHAT;
      what = what.substring(0, end) + "…";
    }
  }
}
