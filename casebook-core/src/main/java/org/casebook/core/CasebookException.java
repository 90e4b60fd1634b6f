package org.casebook.core;

/**
 * Root of the errors Casebook reports to its users. Subclasses say what went wrong in terms the
 * caller can act on; {@link ErrorKind} maps each to an HTTP status and a CLI exit code.
 */
public abstract class CasebookException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  protected CasebookException(String message) {
    super(message);
  }

  protected CasebookException(String message, Throwable cause) {
    super(message, cause);
  }

  /** What kind of failure this is (status and exit code). */
  public abstract ErrorKind kind();
}
