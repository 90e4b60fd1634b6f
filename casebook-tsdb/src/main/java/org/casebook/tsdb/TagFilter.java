package org.casebook.tsdb;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.casebook.core.InvalidInputException;

/**
 * One tag value filter of a sub-query (OpenTSDB 2.4 {@code TagVFilter} and its subclasses): a type,
 * a tag key, the expression, and whether results are grouped by that tag key.
 *
 * <p>{@link #matches} is the filter's own test. The engine adds what OpenTSDB's row key scan adds
 * around it: the tag key must be present, case-sensitive literals of one key are merged, and
 * explicit tags (see {@link QueryEngine}).
 */
final class TagFilter {
  private final TagFilterType type;
  private final String tagKey;
  private final String expression;
  private final boolean groupBy;
  private final boolean caseInsensitive;
  private final Set<String> literals;
  private final boolean leadingStar;
  private final boolean trailingStar;
  private final List<String> globParts;
  private final Pattern pattern;

  private TagFilter(
      TagFilterType type,
      String tagKey,
      String expression,
      boolean groupBy,
      boolean caseInsensitive,
      String field) {
    this.type = type;
    this.tagKey = tagKey;
    this.expression = expression;
    this.groupBy = groupBy;
    this.caseInsensitive = caseInsensitive;
    if (tagKey == null || tagKey.isEmpty()) {
      throw new InvalidInputException(field, "Filter must have a tagk");
    }
    Set<String> parsedLiterals = Set.of();
    boolean leading = false;
    boolean trailing = false;
    List<String> parts = List.of();
    Pattern compiled = null;
    switch (type) {
      case LITERAL_OR, ILITERAL_OR, NOT_LITERAL_OR, NOT_ILITERAL_OR -> {
        requireExpression(expression, field);
        if (expression.equals("|")) {
          throw new InvalidInputException(field, "Filter must contain more than just a pipe");
        }
        // OpenTSDB uses String.split, which drops trailing empty strings.
        @SuppressWarnings("StringSplitter")
        String[] split = expression.split("\\|");
        parsedLiterals =
            Set.copyOf(
                Arrays.stream(split)
                    .map(v -> caseInsensitive ? v.toLowerCase(Locale.ROOT) : v)
                    .toList());
      }
      case WILDCARD, IWILDCARD -> {
        requireExpression(expression, field);
        String actual = caseInsensitive ? expression.toLowerCase(Locale.ROOT) : expression;
        if (!actual.contains("*")) {
          throw new InvalidInputException(field, "Filter must contain an asterisk");
        }
        if (actual.charAt(0) == '*') {
          leading = true;
          while (actual.charAt(0) == '*' && actual.length() >= 2) {
            actual = actual.substring(1);
          }
        }
        if (actual.charAt(actual.length() - 1) == '*') {
          trailing = true;
          while (actual.charAt(actual.length() - 1) == '*' && actual.length() >= 2) {
            actual = actual.substring(0, actual.length() - 1);
          }
        }
        parts = actual.indexOf('*') > 0 ? List.of(SubQuery.split(actual, '*')) : List.of(actual);
      }
      case REGEXP -> {
        requireExpression(expression, field);
        try {
          compiled = Pattern.compile(expression);
        } catch (PatternSyntaxException e) {
          throw new InvalidInputException(field, e.getMessage());
        }
      }
      case NOT_KEY -> {
        if (expression != null && !expression.isEmpty()) {
          throw new InvalidInputException(field, "The filter must be empty for the not_key filter");
        }
      }
    }
    this.literals = parsedLiterals;
    this.leadingStar = leading;
    this.trailingStar = trailing;
    this.globParts = parts;
    this.pattern = compiled;
  }

  private static void requireExpression(String expression, String field) {
    if (expression == null || expression.isEmpty()) {
      throw new InvalidInputException(field, "Filter cannot be null or empty");
    }
  }

  /** A filter of an explicit type, case sensitivity following the type. */
  static TagFilter of(
      TagFilterType type, String tagKey, String expression, boolean groupBy, String field) {
    boolean insensitive =
        type == TagFilterType.ILITERAL_OR
            || type == TagFilterType.NOT_ILITERAL_OR
            || type == TagFilterType.IWILDCARD;
    return new TagFilter(type, tagKey, expression, groupBy, insensitive, field);
  }

  /**
   * A filter from one object of a JSON query's filter array, with its "type", "tagk", "filter" and
   * "groupBy" fields; the type name is matched exactly, as OpenTSDB's JSON builder does.
   */
  static TagFilter fromJson(String type, String tagKey, String filter, boolean groupBy) {
    String field = "filters";
    if (type == null || type.isEmpty()) {
      throw new InvalidInputException(field, "The filter type cannot be null or empty");
    }
    if (tagKey == null || tagKey.isEmpty()) {
      throw new InvalidInputException(field, "The tagk cannot be null or empty");
    }
    TagFilterType t =
        TagFilterType.byName(type)
            .orElseThrow(
                () ->
                    new InvalidInputException(
                        field, "Could not find a tag value filter of the type: " + type));
    return of(t, tagKey, filter, groupBy, field);
  }

  /**
   * A filter from a {@code tagk=value} pair of the legacy {@code tags} map or of {@code m=} braces
   * (OpenTSDB {@code TagVFilter.getFilter} plus {@code mapToFilters}): {@code type(expr)} (type
   * name case-insensitive), {@code *} (wildcard), a value containing {@code *} (a wildcard that is
   * case-INsensitive although typed "wildcard", as in OpenTSDB), else a literal_or ({@code a|b}).
   */
  static TagFilter fromTagValue(String tagKey, String value, boolean groupBy, String field) {
    if (tagKey == null || tagKey.isEmpty()) {
      throw new InvalidInputException(field, "Tagk cannot be null or empty");
    }
    if (value == null || value.isEmpty()) {
      throw new InvalidInputException(field, "Filter cannot be null or empty");
    }
    int paren = value.indexOf('(');
    if (paren > -1) {
      String prefix = value.substring(0, paren).toLowerCase(Locale.ROOT);
      if (value.charAt(value.length() - 1) != ')') {
        throw new InvalidInputException(field, "Filter must end with a ')': " + value);
      }
      String inner = value.substring(paren + 1, value.length() - 1);
      if (prefix.isEmpty()) {
        throw new InvalidInputException(field, "The filter type cannot be null or empty");
      }
      TagFilterType t =
          TagFilterType.byName(prefix)
              .orElseThrow(
                  () ->
                      new InvalidInputException(
                          field, "Could not find a tag value filter of the type: " + prefix));
      return of(t, tagKey, inner, groupBy, field);
    }
    if (value.contains("*")) {
      return new TagFilter(TagFilterType.WILDCARD, tagKey, value, groupBy, true, field);
    }
    return of(TagFilterType.LITERAL_OR, tagKey, value, groupBy, field);
  }

  /**
   * The filters of a JSON query's legacy {@code tags} map: every entry becomes a group-by filter
   * (OpenTSDB {@code TSSubQuery.setTags}). OpenTSDB's setter replaces any {@code filters} read
   * before it and is replaced by a {@code filters} read after it, in JSON field order.
   */
  static List<TagFilter> fromTags(Map<String, String> tags) {
    return addGroupByFilters(List.of(), tags, "tags");
  }

  /**
   * Adds group-by filters for {@code tags} to {@code existing}: a filter equal to an existing one
   * (same type family, key and expression) turns the existing one into a group-by instead of being
   * added (OpenTSDB {@code mapToFilters} with group_by).
   */
  static List<TagFilter> addGroupByFilters(
      List<TagFilter> existing, Map<String, String> tags, String field) {
    List<TagFilter> out = new ArrayList<>(existing);
    for (Map.Entry<String, String> tag : tags.entrySet()) {
      TagFilter filter = fromTagValue(tag.getKey(), tag.getValue(), true, field);
      boolean duplicate = false;
      for (int i = 0; i < out.size(); i++) {
        if (filter.sameFilterAs(out.get(i))) {
          out.set(i, out.get(i).withGroupBy(true));
          duplicate = true;
          break;
        }
      }
      if (!duplicate) {
        out.add(filter);
      }
    }
    return List.copyOf(out);
  }

  TagFilterType type() {
    return type;
  }

  String tagKey() {
    return tagKey;
  }

  /** The expression inside the parentheses (empty for not_key). */
  String expression() {
    return expression == null ? "" : expression;
  }

  boolean groupBy() {
    return groupBy;
  }

  boolean caseInsensitive() {
    return caseInsensitive;
  }

  TagFilter withGroupBy(boolean newGroupBy) {
    return new TagFilter(type, tagKey, expression, newGroupBy, caseInsensitive, "filters");
  }

  /**
   * Whether OpenTSDB would store this filter's values in the row key scan: a case-sensitive
   * literal_or; then its literals are merged with the other such filters of the same key.
   */
  boolean isScanLiteral() {
    return type == TagFilterType.LITERAL_OR;
  }

  /** The literal values of a literal type (lower-cased when case-insensitive). */
  Set<String> literals() {
    return literals;
  }

  /** OpenTSDB's filter equality, used to merge {@code m=} group-by braces with filter braces. */
  boolean sameFilterAs(TagFilter other) {
    return family() == other.family()
        && tagKey.equals(other.tagKey)
        && caseInsensitive == other.caseInsensitive
        && literals.equals(other.literals)
        && globParts.equals(other.globParts)
        && Objects.equals(
            pattern == null ? null : pattern.pattern(),
            other.pattern == null ? null : other.pattern.pattern());
  }

  private int family() {
    return switch (type) {
      case LITERAL_OR, ILITERAL_OR -> 0;
      case NOT_LITERAL_OR, NOT_ILITERAL_OR -> 1;
      case WILDCARD, IWILDCARD -> 2;
      case REGEXP -> 3;
      case NOT_KEY -> 4;
    };
  }

  /** The filter's own test on a series' tags. */
  boolean matches(Map<String, String> tags) {
    String value = tags.get(tagKey);
    return switch (type) {
      case LITERAL_OR, ILITERAL_OR -> value != null && literals.contains(fold(value));
      case NOT_LITERAL_OR, NOT_ILITERAL_OR -> value == null || !literals.contains(fold(value));
      case WILDCARD, IWILDCARD -> value != null && globMatches(fold(value));
      case REGEXP -> value != null && pattern.matcher(value).find();
      case NOT_KEY -> value == null;
    };
  }

  private String fold(String value) {
    return caseInsensitive ? value.toLowerCase(Locale.ROOT) : value;
  }

  // OpenTSDB's glob test, including its quirk: after finding a part it only skips that part's
  // length from the previous search start, not from where the part was found.
  private boolean globMatches(String value) {
    if (globParts.size() == 1 && globParts.get(0).equals("*")) {
      return true;
    }
    if (leadingStar && !trailingStar && !value.endsWith(globParts.get(globParts.size() - 1))) {
      return false;
    }
    if (trailingStar && !leadingStar && !value.startsWith(globParts.get(0))) {
      return false;
    }
    int from = 0;
    for (String part : globParts) {
      if (value.indexOf(part, from) < 0) {
        return false;
      }
      from += part.length();
    }
    return true;
  }

  @Override
  public String toString() {
    return type.filterName() + "(" + expression() + ") on " + tagKey + (groupBy ? " group-by" : "");
  }
}
