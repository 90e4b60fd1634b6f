package org.casebook.core;

/**
 * The request contradicts what is stored, e.g. an existing table with another shape (HTTP 409, exit
 * 4).
 */
public final class ConflictException extends CasebookException {
  private static final long serialVersionUID = 1L;

  public ConflictException(String message) {
    super(message);
  }

  @Override
  public ErrorKind kind() {
    return ErrorKind.CONFLICT;
  }
}
