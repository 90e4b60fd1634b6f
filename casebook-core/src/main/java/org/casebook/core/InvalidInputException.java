package org.casebook.core;

import java.util.Objects;

/** The caller sent something we cannot accept; {@link #field()} names what (HTTP 400, exit 2). */
public final class InvalidInputException extends CasebookException {
  private static final long serialVersionUID = 1L;
  private final String field;

  public InvalidInputException(String field, String message) {
    super(Objects.requireNonNull(message, "message is null"));
    this.field = Objects.requireNonNull(field, "field is null");
  }

  public String field() {
    return field;
  }

  @Override
  public ErrorKind kind() {
    return ErrorKind.INVALID_INPUT;
  }

  /** Fails with an {@link InvalidInputException} on {@code field} unless {@code condition}. */
  public static void check(boolean condition, String field, String message) {
    if (!condition) {
      throw new InvalidInputException(field, message);
    }
  }
}
