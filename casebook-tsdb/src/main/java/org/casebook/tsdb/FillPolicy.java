package org.casebook.tsdb;

import org.casebook.core.InvalidInputException;

/** What a downsampler emits for an interval without data (OpenTSDB 2.4 {@code FillPolicy}). */
enum FillPolicy {
  /** Emit nothing; the group interpolates across the gap. */
  NONE("none"),
  ZERO("zero"),
  /** Emit NaN, rendered {@code "NaN"}. */
  NAN("nan"),
  /** Emit NaN, rendered {@code null}: any NaN of such a query prints as null. */
  NULL("null"),
  /**
   * Accepted by OpenTSDB's parser but unsupported by its downsampler: a query that needs to fill an
   * interval fails (HTTP 500 there).
   */
  SCALAR("scalar");

  private final String text;

  FillPolicy(String text) {
    this.text = text;
  }

  /** The name in queries and echoed query JSON. */
  String text() {
    return text;
  }

  /** Case-insensitive lookup, failing with OpenTSDB's message. */
  static FillPolicy parse(String name, String field) {
    for (FillPolicy p : values()) {
      if (p.text.equalsIgnoreCase(name)) {
        return p;
      }
    }
    throw new InvalidInputException(field, "Unrecognized fill policy: " + name);
  }
}
