package org.casebook.weibo;

import org.casebook.core.Ids;
import org.casebook.core.InvalidInputException;

/**
 * Input rules: user ids of 1–64 characters in any script (the platform's id rule), posts of 1–2,000
 * characters.
 */
final class Validation {
  static final int MAX_UID_CHARS = 64;
  static final int MAX_CONTENT_CHARS = 2000;

  private Validation() {}

  static String uid(String value, String field) {
    return Ids.check(value, field, MAX_UID_CHARS);
  }

  static String content(String value) {
    InvalidInputException.check(
        value != null && !value.isBlank(), "content", "content must not be empty");
    String problem = Ids.textProblem(value, MAX_CONTENT_CHARS, true);
    InvalidInputException.check(problem == null, "content", "content " + problem);
    return value;
  }
}
