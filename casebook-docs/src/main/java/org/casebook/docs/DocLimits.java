package org.casebook.docs;

import java.util.Set;
import java.util.regex.Pattern;
import org.casebook.core.Ids;
import org.casebook.core.InvalidInputException;

/**
 * Input rules of the document store, in one place (the README's "Limits" lists the same; the
 * longest line of a bulk request is the wire's, {@code BulkNdjson.MAX_LINE_BYTES}).
 */
final class DocLimits {
  /** Ids are long because crawled pages use their canonical URL as id. */
  static final int MAX_ID_CHARS = 2048;

  static final int MAX_TEXT_CHARS = 65_536;
  static final int MAX_KEYWORD_CHARS = 512;
  static final int MAX_KEYWORDS = 100;
  static final int MAX_FIELDS = 64;

  /** A comment's own key within its parent (it is part of the comment's id). */
  static final int MAX_CID_CHARS = 64;

  private static final Pattern TYPE_NAME = Pattern.compile("[a-z][a-z0-9_]{0,31}");
  private static final Pattern FIELD_NAME = Pattern.compile("[a-zA-Z][a-zA-Z0-9_]{0,63}");
  private static final Pattern CID = Pattern.compile("[A-Za-z0-9._-]{1," + MAX_CID_CHARS + "}");

  /** Names of the store's own tables, which a type's table would collide with. */
  static final Set<String> RESERVED_TYPE_NAMES = Set.of("registry", "by_source");

  private DocLimits() {}

  static String typeName(String value, String field) {
    InvalidInputException.check(
        value != null && TYPE_NAME.matcher(value).matches(),
        field,
        field + " must be 1-32 of a-z, 0-9, _ starting with a letter, got '" + value + "'");
    InvalidInputException.check(
        !RESERVED_TYPE_NAMES.contains(value), field, "'" + value + "' is a reserved name");
    return value;
  }

  static String fieldName(String value, String field) {
    InvalidInputException.check(
        value != null && FIELD_NAME.matcher(value).matches(),
        field,
        "field names are 1-64 of a-z, A-Z, 0-9, _ starting with a letter, got '" + value + "'");
    return value;
  }

  static String id(String value, String field) {
    return Ids.check(value, field, MAX_ID_CHARS);
  }

  /** Characters of an editor's name. */
  static final int MAX_EDITOR_CHARS = 64;

  /** An editor's name: 1-64 characters, no control characters; null stays null (unnamed). */
  static String editor(String value, String field) {
    if (value == null) {
      return null;
    }
    String name = value.strip();
    InvalidInputException.check(
        !name.isEmpty()
            && name.length() <= MAX_EDITOR_CHARS
            && name.codePoints().noneMatch(Character::isISOControl),
        field,
        field + " must be 1-" + MAX_EDITOR_CHARS + " characters, none of them a control character");
    return name;
  }

  static String cid(String value, String field) {
    InvalidInputException.check(
        value != null && CID.matcher(value).matches(),
        field,
        field + " must be 1-" + MAX_CID_CHARS + " of A-Z, a-z, 0-9, '.', '_', '-'");
    return value;
  }
}
