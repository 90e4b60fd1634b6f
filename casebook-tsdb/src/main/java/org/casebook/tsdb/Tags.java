package org.casebook.tsdb;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.casebook.core.InvalidInputException;

/**
 * The grammar and rules of names and tags, as OpenTSDB's {@code Tags}: a line's words, {@code
 * name=value} pairs, {@code metric{k=v,…}} series specifications, and which characters a metric,
 * tag key or tag value may hold. Both put protocols and the import format read their points with
 * these.
 */
public final class Tags {
  /** The longest name (metric, tag key or value), in characters. */
  static final int MAX_NAME_CHARS = 256;

  private Tags() {}

  /** The words of a line, split at runs of spaces and tabs (no regular expression: hot path). */
  public static String[] words(String line) {
    ArrayList<String> out = new ArrayList<>(8);
    int n = line.length();
    int i = 0;
    while (i < n) {
      while (i < n && isBlank(line.charAt(i))) {
        i++;
      }
      int start = i;
      while (i < n && !isBlank(line.charAt(i))) {
        i++;
      }
      if (i > start) {
        out.add(line.substring(start, i));
      }
    }
    return out.toArray(new String[0]);
  }

  private static boolean isBlank(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == 0x0B;
  }

  /** {@code k=v} into {@code tags}; the same pair twice is fine, the same key twice is not. */
  static void parse(Map<String, String> tags, String tag) {
    int eq = tag.indexOf('=');
    if (eq <= 0 || eq == tag.length() - 1 || tag.indexOf('=', eq + 1) >= 0) {
      throw new InvalidInputException("tags", "invalid tag: " + tag);
    }
    String k = tag.substring(0, eq);
    String v = tag.substring(eq + 1);
    String previous = tags.get(k);
    if (v.equals(previous)) {
      return;
    }
    if (previous != null) {
      throw new InvalidInputException("tags", "duplicate tag: " + tag + ", tags=" + tags);
    }
    tags.put(k, v);
  }

  /**
   * Parses {@code metric{k=v,k2=*}} as {@code /api/search/lookup?m=} and last-point queries take
   * it; errors name {@code field}.
   */
  public static SeriesSpec parseSeries(String spec, String field) {
    if (spec == null || spec.isEmpty()) {
      throw new InvalidInputException(field, "Missing the metric");
    }
    int brace = spec.indexOf('{');
    if (brace < 0) {
      return new SeriesSpec(spec, List.of());
    }
    if (!spec.endsWith("}")) {
      throw new InvalidInputException(field, "Missing '}' at the end of: " + spec);
    }
    Map<String, String> seen = new LinkedHashMap<>();
    String inner = spec.substring(brace + 1, spec.length() - 1);
    if (!inner.isEmpty()) {
      for (String tag : inner.split(",", -1)) {
        parse(seen, tag);
      }
    }
    List<TagPair> pairs = new ArrayList<>();
    seen.forEach((k, v) -> pairs.add(new TagPair(k, v)));
    return new SeriesSpec(spec.substring(0, brace), pairs);
  }

  /** OpenTSDB's character rule for names: letters, digits, and {@code - _ . /}. */
  static void checkName(String what, String s, String field) {
    if (s == null || s.isEmpty()) {
      throw new InvalidInputException(field, "Invalid " + what + ": empty string");
    }
    if (s.length() > MAX_NAME_CHARS) {
      throw new InvalidInputException(
          field, "Invalid " + what + ": longer than " + MAX_NAME_CHARS + " characters");
    }
    for (int i = 0; i < s.length(); ) {
      int c = s.codePointAt(i);
      if (!(Character.isLetterOrDigit(c) || c == '-' || c == '_' || c == '.' || c == '/')) {
        throw new InvalidInputException(
            field,
            "Invalid "
                + what
                + " (\""
                + s
                + "\"): illegal character: "
                + new String(Character.toChars(c)));
      }
      i += Character.charCount(c);
    }
  }
}
