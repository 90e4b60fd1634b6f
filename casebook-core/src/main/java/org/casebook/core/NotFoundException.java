package org.casebook.core;

/** What the caller asked for does not exist (HTTP 404, exit 3). */
public final class NotFoundException extends CasebookException {
  private static final long serialVersionUID = 1L;

  public NotFoundException(String message) {
    super(message);
  }

  @Override
  public ErrorKind kind() {
    return ErrorKind.NOT_FOUND;
  }
}
