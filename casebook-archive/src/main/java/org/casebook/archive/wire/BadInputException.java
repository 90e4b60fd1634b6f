package org.casebook.archive.wire;

/** A file that cannot be imported, and why (the reason goes into the quarantine). */
public final class BadInputException extends Exception {
  private static final long serialVersionUID = 1L;

  public BadInputException(String reason) {
    super(reason);
  }

  public BadInputException(String reason, Throwable cause) {
    super(reason, cause);
  }
}
