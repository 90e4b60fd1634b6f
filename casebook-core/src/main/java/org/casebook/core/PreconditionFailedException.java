package org.casebook.core;

/**
 * A conditional change whose condition no longer holds, e.g. a stale version (HTTP 412, exit 4).
 */
public final class PreconditionFailedException extends CasebookException {
  private static final long serialVersionUID = 1L;

  public PreconditionFailedException(String message) {
    super(message);
  }

  @Override
  public ErrorKind kind() {
    return ErrorKind.PRECONDITION_FAILED;
  }
}
