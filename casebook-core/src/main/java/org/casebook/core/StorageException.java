package org.casebook.core;

import java.io.IOException;
import java.io.InterruptedIOException;

/** HBase (or the cluster's file system) failed or could not be reached (HTTP 503, exit 5). */
public final class StorageException extends CasebookException {
  private static final long serialVersionUID = 1L;
  private final boolean interrupted;

  private StorageException(String message, Throwable cause, boolean interrupted) {
    super(message, cause);
    this.interrupted = interrupted;
  }

  /** {@code could not <what>: <cause>}; an interrupted call stays an interrupt. */
  public static StorageException of(String what, IOException cause) {
    // A socket timeout is an InterruptedIOException too, but nobody interrupted us.
    boolean interrupted =
        cause instanceof InterruptedIOException
            && !(cause instanceof java.net.SocketTimeoutException);
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    return new StorageException(
        "could not " + what + ": " + cause.getMessage(), cause, interrupted);
  }

  /** Storage refuses work for now, for a reason the message gives (a retriable 503). */
  public static StorageException unavailable(String message) {
    return new StorageException(message, null, false);
  }

  /** The thread was interrupted while waiting for storage (shutdown, a cancelled request). */
  public static StorageException interrupted(String what, InterruptedException cause) {
    Thread.currentThread().interrupt();
    return new StorageException("interrupted while trying to " + what, cause, true);
  }

  @Override
  public ErrorKind kind() {
    return interrupted ? ErrorKind.INTERRUPTED : ErrorKind.STORAGE_UNAVAILABLE;
  }
}
