package org.casebook.archive.wire;

import org.casebook.core.Enums;

/** A file or record that cannot be imported, and why (the reason goes into the quarantine). */
public final class BadInputException extends Exception {
  private static final long serialVersionUID = 1L;

  /** What is wrong, as counted in an import's report of set-aside records. */
  public enum Defect {
    /** Not JSON (a syntax error). */
    INVALID_JSON,
    /** Bytes that are not UTF-8. */
    INVALID_UTF8,
    /** The input ends inside a value. */
    TRUNCATED,
    /** A required field is absent. */
    MISSING_FIELD,
    /** A field of the wrong type, or a value out of its range. */
    WRONG_VALUE;

    public String label() {
      return Enums.label(this);
    }
  }

  private final Defect defect;

  public BadInputException(String reason) {
    this(Defect.WRONG_VALUE, reason);
  }

  public BadInputException(Defect defect, String reason) {
    super(reason);
    this.defect = defect;
  }

  public BadInputException(Defect defect, String reason, Throwable cause) {
    super(reason, cause);
    this.defect = defect;
  }

  public Defect defect() {
    return defect;
  }
}
