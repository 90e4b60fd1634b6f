package org.casebook.core.access;

/**
 * Where changes are recorded ({@link AuditTable} in a served process). Recording never fails the
 * request it describes: a trail that cannot be written is logged and counted instead.
 */
@FunctionalInterface
public interface AuditLog {
  void record(AuditEntry entry);

  /** For servers that keep no trail (a device agent's collector under test, a benchmark peer). */
  static AuditLog none() {
    return entry -> {};
  }
}
