package org.casebook.core.batch;

import org.casebook.core.CasebookException;
import org.casebook.core.ErrorKind;

/** A batch job could not be submitted or did not succeed (HTTP 502, exit 8). */
public final class BatchJobException extends CasebookException {
  private static final long serialVersionUID = 1L;

  public BatchJobException(String message, Throwable cause) {
    super(message, cause);
  }

  @Override
  public ErrorKind kind() {
    return ErrorKind.BATCH_JOB_FAILED;
  }
}
