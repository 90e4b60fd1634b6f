package org.casebook.core;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A local file could not be read or written (HTTP 500, exit 7): not HBase's fault, so not a 503.
 */
public final class LocalFileException extends CasebookException {
  private static final long serialVersionUID = 1L;

  public LocalFileException(String message, IOException cause) {
    super(message, cause);
  }

  /** {@code could not <what> <file>: <cause>}. */
  public static LocalFileException of(String what, Path file, IOException cause) {
    return new LocalFileException(
        "could not " + what + " " + file + ": " + cause.getMessage(), cause);
  }

  @Override
  public ErrorKind kind() {
    return ErrorKind.LOCAL_FILE;
  }
}
