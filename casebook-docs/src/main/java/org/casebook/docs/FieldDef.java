package org.casebook.docs;

import java.util.Objects;
import org.casebook.core.InvalidInputException;

/** One declared field of a document type. */
public record FieldDef(String name, FieldKind kind, Family family) {
  public FieldDef {
    DocLimits.fieldName(name, "fields");
    InvalidInputException.check(kind != null, "fields." + name + ".kind", "kind is required");
    InvalidInputException.check(
        family != null, "fields." + name + ".family", "family is required (BI or DI)");
  }

  static FieldDef of(String name, FieldKind kind, Family family) {
    return new FieldDef(
        name, Objects.requireNonNull(kind, "kind"), Objects.requireNonNull(family, "family"));
  }

  /**
   * DI longs are counters: a cell of their own each (so increments are HBase increments), changed
   * by increments and by explicit PATCHes only. Static, so that JSON shows no such property.
   */
  static boolean isCounter(FieldDef f) {
    return f.family() == Family.DI && f.kind() == FieldKind.LONG;
  }
}
