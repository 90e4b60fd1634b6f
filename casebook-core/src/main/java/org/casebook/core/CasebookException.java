package org.casebook.core;

/**
 * Root of the errors Casebook reports to its users. Subclasses say what went wrong in
 * terms the caller can act on; the HTTP and CLI adapters map each to a status or exit code.
 * Storage failures are not in this hierarchy: they surface as {@link java.io.UncheckedIOException}.
 */
public abstract class CasebookException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  protected CasebookException(String message) {
    super(message);
  }

  protected CasebookException(String message, Throwable cause) {
    super(message, cause);
  }
}
