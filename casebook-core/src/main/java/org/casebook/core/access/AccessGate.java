package org.casebook.core.access;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.util.Objects;
import java.util.Optional;
import org.casebook.core.AccessRule;

/**
 * The access rule, the audit trail and the refusal counter as one system's own listeners use them
 * (a line protocol's {@code auth} line, gRPC call credentials), so that every protocol makes the
 * same checks HTTP makes and leaves the same traces.
 */
public final class AccessGate {
  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(AccessGate.class);

  private final AccessRule rule;
  private final String system;
  private final AuditLog audit;
  private final MeterRegistry metrics;
  private final Clock clock;

  public AccessGate(
      AccessRule rule, String system, AuditLog audit, MeterRegistry metrics, Clock clock) {
    this.rule = Objects.requireNonNull(rule, "rule is null");
    this.system = Objects.requireNonNull(system, "system is null");
    this.audit = Objects.requireNonNull(audit, "audit is null");
    this.metrics = Objects.requireNonNull(metrics, "metrics is null");
    this.clock = Objects.requireNonNull(clock, "clock is null");
  }

  public String system() {
    return system;
  }

  /** The caller before any credential. */
  public Caller anonymous() {
    return rule.anonymous();
  }

  /** The principal of {@code token} (compared in constant time); empty when none has it. */
  public Optional<Caller> byToken(String token) {
    return rule.byToken(token);
  }

  /** The caller an {@code Authorization} header value names (see {@link AccessRule#byHeader}). */
  public Optional<Caller> byHeader(String authorization) {
    return rule.byHeader(authorization);
  }

  /** True when {@code caller} may do {@code action} here; a refusal is counted. */
  public boolean check(Caller caller, Action action, String protocol) {
    if (caller.may(system, action)) {
      return true;
    }
    denied(metrics, protocol, system, caller);
    return false;
  }

  /** Counts a credential no principal has. */
  public void unknownCredential(String protocol) {
    denied(metrics, protocol, system, "unknown_credential");
  }

  /**
   * Records a change (or a refused attempt at one) here; a trail that cannot be written is logged,
   * never the caller's failure.
   */
  public void audit(Caller caller, Action action, String what, String outcome, String remote) {
    try {
      audit.record(
          new AuditEntry(clock.instant(), caller.name(), system, action, what, outcome, remote));
    } catch (RuntimeException e) {
      LOG.error("could not audit {} by {} on {}", what, caller.name(), system, e);
    }
  }

  /** Counts a refusal of {@code caller}: {@code forbidden} with credentials, else not. */
  public static void denied(MeterRegistry metrics, String protocol, String system, Caller caller) {
    denied(metrics, protocol, system, caller.authenticated() ? "forbidden" : "unauthenticated");
  }

  /** Counts one refusal: {@code casebook.access.denied{protocol, system, reason}}. */
  public static void denied(MeterRegistry metrics, String protocol, String system, String reason) {
    Counter.builder("casebook.access.denied")
        .description("requests refused for lack of credentials or of a grant")
        .tag("protocol", protocol)
        .tag("system", system)
        .tag("reason", reason)
        .register(metrics)
        .increment();
  }
}
