package org.casebook.tsdb;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The tag value filter types of OpenTSDB 2.4 ({@code net.opentsdb.query.filter}), with the
 * description and examples {@code /api/config/filters} shows for each, word for word.
 */
enum TagFilterType {
  LITERAL_OR(
      "literal_or",
      "Accepts one or more exact values and matches if the series contains any of them. Multiple"
          + " values can be included and must be separated by the | (pipe) character. The filter"
          + " is case sensitive and will not allow characters that TSDB does not allow at write"
          + " time.",
      "host=literal_or(web01),  host=literal_or(web01|web02|web03) "
          + " {\"type\":\"literal_or\",\"tagk\":\"host\",\"filter\":\"web01|web02|web03\","
          + "\"groupBy\":false}"),
  ILITERAL_OR(
      "iliteral_or",
      "Accepts one or more exact values and matches if the series contains any of them. Multiple"
          + " values can be included and must be separated by the | (pipe) character. The filter"
          + " is case insensitive and will not allow characters that TSDB does not allow at write"
          + " time.",
      "host=iliteral_or(web01),  host=iliteral_or(web01|web02|web03) "
          + " {\"type\":\"iliteral_or\",\"tagk\":\"host\",\"filter\":\"web01|web02|web03\","
          + "\"groupBy\":false}"),
  NOT_LITERAL_OR(
      "not_literal_or",
      "Accepts one or more exact values and matches if the series does NOT contain any of them."
          + " Multiple values can be included and must be separated by the | (pipe) character."
          + " The filter is case sensitive and will not allow characters that TSDB does not allow"
          + " at write time.",
      "host=not_literal_or(web01),  host=not_literal_or(web01|web02|web03) "
          + " {\"type\":\"not_literal_or\",\"tagk\":\"host\",\"filter\":\"web01|web02|web03\","
          + "\"groupBy\":false}"),
  NOT_ILITERAL_OR(
      "not_iliteral_or",
      "Accepts one or more exact values and matches if the series does NOT contain any of them."
          + " Multiple values can be included and must be separated by the | (pipe) character."
          + " The filter is case insensitive and will not allow characters that TSDB does not"
          + " allow at write time.",
      "host=not_iliteral_or(web01),  host=not_iliteral_or(web01|web02|web03) "
          + " {\"type\":\"not_iliteral_or\",\"tagk\":\"host\",\"filter\":\"web01|web02|web03\","
          + "\"groupBy\":false}"),
  WILDCARD(
      "wildcard",
      "Performs pre, post and in-fix glob matching of values. The globs are case sensitive and"
          + " multiple wildcards can be used. The wildcard character is the * (asterisk). At"
          + " least one wildcard must be present in the filter value. A wildcard by itself can be"
          + " used as well to match on any value for the tag key.",
      "host=wildcard(web*),  host=wildcard(web*.tsdb.net) "
          + " {\"type\":\"wildcard\",\"tagk\":\"host\",\"filter\":\"web*.tsdb.net\","
          + "\"groupBy\":false}"),
  IWILDCARD(
      "iwildcard",
      "Performs pre, post and in-fix glob matching of values. The globs are case insensitive and"
          + " multiple wildcards can be used. The wildcard character is the * (asterisk). Case"
          + " insensitivity is achieved by dropping all values to lower case. At least one"
          + " wildcard must be present in the filter value. A wildcard by itself can be used as"
          + " well to match on any value for the tag key.",
      "host=iwildcard(web*),  host=iwildcard(web*.tsdb.net) "
          + " {\"type\":\"iwildcard\",\"tagk\":\"host\",\"filter\":\"web*.tsdb.net\","
          + "\"groupBy\":false}"),
  REGEXP(
      "regexp",
      "Provides full, POSIX compliant regular expression using the built in Java Pattern class."
          + " Note that an expression containing curly braces {} will not parse properly in URLs."
          + " If the pattern is not a valid regular expression then an exception will be raised.",
      "host=regexp(.*)  {\"type\":\"regexp\",\"tagk\":\"host\",\"filter\":\".*\","
          + "\"groupBy\":false}"),
  /**
   * Skips series that have the tag key. OpenTSDB 2.4.1 ships this class but leaves it out of its
   * filter registry (its row key scan cannot express it), so there it is rejected as unknown and is
   * absent from {@code /api/config/filters}; Casebook accepts it and does not list it.
   */
  NOT_KEY(
      "not_key",
      "Skips any time series with the given tag key, regardless of the value. This can be useful"
          + " for situations where a metric has inconsistent tag sets. NOTE: The filter value"
          + " must be null or an empty string.",
      "host=not_key()  {\"type\":\"not_key\",\"tagk\":\"host\",\"filter\":\"\","
          + "\"groupBy\":false}");

  /** One entry of {@code /api/config/filters}. */
  record Description(String name, String description, String examples) {}

  private final String filterName;
  private final String description;
  private final String examples;

  TagFilterType(String filterName, String description, String examples) {
    this.filterName = filterName;
    this.description = description;
    this.examples = examples;
  }

  /** The name used in {@code type(...)} and JSON {@code "type"}. */
  String filterName() {
    return filterName;
  }

  String description() {
    return description;
  }

  String examples() {
    return examples;
  }

  /** The type with exactly this name (JSON {@code type} is case-sensitive in OpenTSDB). */
  static Optional<TagFilterType> byName(String name) {
    for (TagFilterType t : values()) {
      if (t.filterName.equals(name)) {
        return Optional.of(t);
      }
    }
    return Optional.empty();
  }

  /**
   * The {@code /api/config/filters} entries in OpenTSDB 2.4.1's order: it walks the values of its
   * registry (a {@code HashMap}) into another {@code HashMap} sized 7 and serializes that, so the
   * same two maps reproduce the order. Within an entry the keys come in {@link #ENTRY_KEY_ORDER}.
   */
  @SuppressWarnings("NonApiType") // HashMap on purpose: its iteration order is the API's order.
  static List<Description> configEntries() {
    HashMap<String, TagFilterType> registry = new HashMap<>();
    for (TagFilterType t :
        List.of(
            LITERAL_OR,
            ILITERAL_OR,
            NOT_LITERAL_OR,
            NOT_ILITERAL_OR,
            REGEXP,
            WILDCARD,
            IWILDCARD)) {
      registry.put(t.filterName, t);
    }
    HashMap<String, TagFilterType> served = new HashMap<>(registry.size());
    for (TagFilterType t : registry.values()) {
      served.put(t.filterName, t);
    }
    List<Description> entries = new ArrayList<>();
    for (TagFilterType t : served.values()) {
      entries.add(new Description(t.filterName, t.description, t.examples));
    }
    return List.copyOf(entries);
  }

  /** The key order inside one {@code /api/config/filters} entry, as OpenTSDB's map yields it. */
  static final List<String> ENTRY_KEY_ORDER = entryKeyOrder();

  @SuppressWarnings("NonApiType") // HashMap on purpose: its iteration order is the API's order.
  private static List<String> entryKeyOrder() {
    HashMap<String, String> meta = new HashMap<>(1);
    meta.put("description", "");
    meta.put("examples", "");
    return List.copyOf(meta.keySet());
  }

  /** The entries as an ordered map name to (key to text), convenient for rendering. */
  static Map<String, Map<String, String>> configMap() {
    Map<String, Map<String, String>> out = new LinkedHashMap<>();
    for (Description d : configEntries()) {
      Map<String, String> meta = new LinkedHashMap<>();
      for (String key : ENTRY_KEY_ORDER) {
        meta.put(key, key.equals("description") ? d.description() : d.examples());
      }
      out.put(d.name(), Collections.unmodifiableMap(meta));
    }
    return Collections.unmodifiableMap(out);
  }
}
