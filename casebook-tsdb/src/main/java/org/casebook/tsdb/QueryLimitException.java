package org.casebook.tsdb;

import java.util.Objects;
import org.casebook.core.CasebookException;
import org.casebook.core.ErrorKind;

/**
 * A query passed one of its {@link QueryLimits} and was cut off: the caller asked for too much
 * (invalid input; OpenTSDB answers its own query limits with {@code 413}).
 */
public final class QueryLimitException extends CasebookException {
  private static final long serialVersionUID = 1L;
  private final String setting;

  /** {@code setting}: the name of the setting whose limit was passed ({@code query-max-points}). */
  QueryLimitException(String setting, String message) {
    super(Objects.requireNonNull(message, "message is null"));
    this.setting = Objects.requireNonNull(setting, "setting is null");
  }

  /** The setting whose limit was passed, e.g. {@code query-max-points}. */
  public String setting() {
    return setting;
  }

  @Override
  public ErrorKind kind() {
    return ErrorKind.INVALID_INPUT;
  }
}
