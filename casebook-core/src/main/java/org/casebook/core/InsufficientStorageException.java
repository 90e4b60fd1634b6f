package org.casebook.core;

/**
 * A write refused because the disk that holds the data is nearly full (HTTP 507, exit 9).
 * Retriable: nothing of the write was stored, and writes are taken again once space is freed.
 */
public final class InsufficientStorageException extends CasebookException {
  private static final long serialVersionUID = 1L;

  public InsufficientStorageException(String message) {
    super(message);
  }

  @Override
  public ErrorKind kind() {
    return ErrorKind.INSUFFICIENT_STORAGE;
  }
}
