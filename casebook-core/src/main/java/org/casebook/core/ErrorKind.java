package org.casebook.core;

import java.io.FileNotFoundException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.nio.file.FileSystemException;
import java.util.Locale;

/**
 * The one table from what went wrong to what the caller sees: an HTTP status for the REST API and
 * an exit code for the CLI. Every adapter maps errors through {@link #of(Throwable)}.
 *
 * <table>
 *   <caption>Error kinds</caption>
 *   <tr><th>kind</th><th>HTTP</th><th>exit</th></tr>
 *   <tr><td>invalid input</td><td>400</td><td>2</td></tr>
 *   <tr><td>not found</td><td>404</td><td>3</td></tr>
 *   <tr><td>conflict</td><td>409</td><td>4</td></tr>
 *   <tr><td>precondition failed</td><td>412</td><td>4</td></tr>
 *   <tr><td>storage unavailable</td><td>503</td><td>5</td></tr>
 *   <tr><td>interrupted</td><td>503</td><td>6</td></tr>
 *   <tr><td>insufficient storage</td><td>507</td><td>9</td></tr>
 *   <tr><td>local file error</td><td>500</td><td>7</td></tr>
 *   <tr><td>batch job failed</td><td>502</td><td>8</td></tr>
 *   <tr><td>internal error</td><td>500</td><td>1</td></tr>
 * </table>
 */
public enum ErrorKind {
  INVALID_INPUT(400, 2, "invalid input"),
  NOT_FOUND(404, 3, "not found"),
  CONFLICT(409, 4, "conflict"),
  PRECONDITION_FAILED(412, 4, "precondition failed"),
  STORAGE_UNAVAILABLE(503, 5, "storage unavailable"),
  INTERRUPTED(503, 6, "interrupted"),
  INSUFFICIENT_STORAGE(507, 9, "insufficient storage"),
  LOCAL_FILE(500, 7, "local file error"),
  BATCH_JOB_FAILED(502, 8, "batch job failed"),
  INTERNAL(500, 1, "internal error");

  private final int httpStatus;
  private final int exitCode;
  private final String label;

  ErrorKind(int httpStatus, int exitCode, String label) {
    this.httpStatus = httpStatus;
    this.exitCode = exitCode;
    this.label = label;
  }

  public int httpStatus() {
    return httpStatus;
  }

  public int exitCode() {
    return exitCode;
  }

  /** Human words, e.g. {@code storage unavailable}. */
  public String label() {
    return label;
  }

  /** The JSON name, e.g. {@code storage_unavailable}. */
  public String code() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * The kind of any failure. Casebook's own exceptions say theirs; an interrupt anywhere in the
   * cause chain is {@link #INTERRUPTED}; a local file-system error is {@link #LOCAL_FILE}; any
   * other I/O failure is storage (HBase, HDFS) being unavailable; everything else is internal.
   */
  public static ErrorKind of(Throwable t) {
    if (t instanceof CasebookException ce) {
      return ce.kind();
    }
    for (Throwable c = t; c != null; c = c.getCause()) {
      // A socket timeout is an InterruptedIOException too, but a storage failure, not an interrupt.
      if (c instanceof InterruptedException
          || (c instanceof InterruptedIOException
              && !(c instanceof java.net.SocketTimeoutException))) {
        return INTERRUPTED;
      }
    }
    for (Throwable c = t; c != null; c = c.getCause()) {
      if (c instanceof FileSystemException || c instanceof FileNotFoundException) {
        return LOCAL_FILE;
      }
    }
    if (t instanceof UncheckedIOException || t instanceof java.io.IOException) {
      return STORAGE_UNAVAILABLE;
    }
    return INTERNAL;
  }
}
