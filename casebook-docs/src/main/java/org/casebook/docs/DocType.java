package org.casebook.docs;

import com.fasterxml.jackson.annotation.JsonIgnore;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.casebook.core.InvalidInputException;

/**
 * A declared document type: its fields, and for a child type (comments) the types whose documents
 * it attaches to. Each type has its own table with families BI and DI.
 */
public record DocType(String name, List<FieldDef> fields, List<String> parents) {
  public DocType {
    DocLimits.typeName(name, "type");
    InvalidInputException.check(
        fields != null && !fields.isEmpty(), "fields", "a type needs at least one field");
    InvalidInputException.check(
        fields.size() <= DocLimits.MAX_FIELDS,
        "fields",
        "a type has at most " + DocLimits.MAX_FIELDS + " fields");
    Set<String> seen = new HashSet<>();
    for (FieldDef f : fields) {
      InvalidInputException.check(
          seen.add(f.name()), "fields", "field '" + f.name() + "' is declared twice");
    }
    fields = List.copyOf(fields);
    parents = parents == null ? List.of() : List.copyOf(parents);
    for (String p : parents) {
      DocLimits.typeName(p, "parents");
      InvalidInputException.check(!p.equals(name), "parents", "a type cannot be a child of itself");
    }
  }

  public Optional<FieldDef> field(String fieldName) {
    for (FieldDef f : fields) { // at most 64: a loop, called for every field of every document
      if (f.name().equals(fieldName)) {
        return Optional.of(f);
      }
    }
    return Optional.empty();
  }

  /** Whether documents of this type are comments under a parent document. */
  @JsonIgnore
  public boolean isChild() {
    return !parents.isEmpty();
  }

  /**
   * Whether documents of this type are listed by source site and day: the type has a keyword {@code
   * url} and a time {@code created} in BI.
   */
  public boolean indexedBySource() {
    return field("url")
            .filter(f -> f.kind() == FieldKind.KEYWORD && f.family() == Family.BI)
            .isPresent()
        && field("created")
            .filter(f -> f.kind() == FieldKind.TIME && f.family() == Family.BI)
            .isPresent();
  }
}
