package org.casebook.weibo;

import org.casebook.core.InvalidInputException;

/** Input rules: user ids of 1–64 characters in any script, posts of 1–2,000 characters. */
final class Validation {
  static final int MAX_UID_CHARS = 64;
  static final int MAX_CONTENT_CHARS = 2000;

  private Validation() {}

  static String uid(String value, String field) {
    InvalidInputException.check(value != null && !value.isEmpty(), field, field + " must not be empty");
    int count = checkText(value, field, false);
    InvalidInputException.check(count <= MAX_UID_CHARS, field,
        field + " must be at most " + MAX_UID_CHARS + " characters, got " + count);
    InvalidInputException.check(!value.isBlank(), field, field + " must not be blank");
    return value;
  }

  static String content(String value) {
    InvalidInputException.check(value != null && !value.isBlank(), "content", "content must not be empty");
    int count = checkText(value, "content", true);
    InvalidInputException.check(count <= MAX_CONTENT_CHARS, "content",
        "content must be at most " + MAX_CONTENT_CHARS + " characters, got " + count);
    return value;
  }

  /** Counts code points; rejects control characters and broken surrogate pairs. */
  private static int checkText(String value, String field, boolean allowLineBreaks) {
    int count = 0;
    for (int i = 0; i < value.length(); ) {
      int cp = value.codePointAt(i);
      if (Character.isSurrogate((char) cp)) {
        throw new InvalidInputException(field, field + " contains an unpaired surrogate at index " + i);
      }
      boolean lineBreak = cp == '\n' || cp == '\r' || cp == '\t';
      if (Character.getType(cp) == Character.CONTROL && !(allowLineBreaks && lineBreak)) {
        throw new InvalidInputException(field, field + " contains control character U+"
            + String.format("%04X", cp) + " at index " + i);
      }
      count++;
      i += Character.charCount(cp);
    }
    return count;
  }

  static int limit(int requested, int max, String field) {
    InvalidInputException.check(requested >= 1 && requested <= max, field, field + " must be between 1 and " + max);
    return requested;
  }
}
