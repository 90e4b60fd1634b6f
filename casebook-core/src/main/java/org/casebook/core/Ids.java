package org.casebook.core;

/**
 * The one rule for caller-chosen ids (user ids, names in paths and bodies): 1 to {@code maxChars}
 * characters (code points), not blank, no control characters, no broken surrogate pairs (so the id
 * is valid UTF-8 when stored). Systems pick the maximum a seed needs; {@link #DEFAULT_MAX_CHARS}
 * otherwise.
 */
public final class Ids {
  public static final int DEFAULT_MAX_CHARS = 128;

  private Ids() {}

  /**
   * {@code value} if it is a valid id, else an {@link InvalidInputException} naming {@code field}.
   */
  public static String check(String value, String field, int maxChars) {
    InvalidInputException.check(
        value != null && !value.isEmpty(), field, field + " must not be empty");
    String problem = textProblem(value, maxChars, false);
    InvalidInputException.check(problem == null, field, field + " " + problem);
    InvalidInputException.check(!value.isBlank(), field, field + " must not be blank");
    return value;
  }

  public static String check(String value, String field) {
    return check(value, field, DEFAULT_MAX_CHARS);
  }

  /**
   * What is wrong with free text, or null: too long (in code points), a control character (tab, CR
   * and LF allowed only when {@code allowLineBreaks}), a broken surrogate pair.
   */
  public static String textProblem(String s, int maxChars, boolean allowLineBreaks) {
    int count = 0;
    for (int i = 0; i < s.length(); ) {
      int cp = s.codePointAt(i);
      if (Character.getType(cp) == Character.SURROGATE) {
        return "contains an unpaired surrogate at index " + i;
      }
      boolean lineBreak = cp == '\n' || cp == '\r' || cp == '\t';
      if (Character.getType(cp) == Character.CONTROL && !(allowLineBreaks && lineBreak)) {
        return "contains control character U+"
            + String.format(java.util.Locale.ROOT, "%04X", cp)
            + " at index "
            + i;
      }
      count++;
      if (count > maxChars) {
        return "must be at most " + maxChars + " characters";
      }
      i += Character.charCount(cp);
    }
    return null;
  }
}
