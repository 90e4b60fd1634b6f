package org.casebook.tsdb;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The order of tag keys and of tag values by their UIDs. OpenTSDB orders everything by UID bytes:
 * the series of a group (which decides first/last and float rounding), the groups of a group-by
 * (the output order), and {@code aggregateTags}. UIDs are given in order of first write, so the
 * store should pass comparators on its ids; {@link #BY_NAME} is right only when names were first
 * written in alphabetical order.
 *
 * @param keys compares tag key names by their UIDs
 * @param values compares tag value names by their UIDs
 */
record TagOrder(Comparator<String> keys, Comparator<String> values) {

  /** Orders names by their text, for stores without ids and for tests. */
  static final TagOrder BY_NAME =
      new TagOrder(Comparator.naturalOrder(), Comparator.naturalOrder());

  TagOrder {
    Objects.requireNonNull(keys, "keys is null");
    Objects.requireNonNull(values, "values is null");
  }

  /**
   * The order of series by their row keys without the time (OpenTSDB's TSUID order with no salt):
   * tag pairs sorted by key, compared pair by pair, a prefix first.
   */
  Comparator<Series> series() {
    return (a, b) -> {
      List<Map.Entry<String, String>> x = sortedPairs(a.tags());
      List<Map.Entry<String, String>> y = sortedPairs(b.tags());
      for (int i = 0; i < Math.min(x.size(), y.size()); i++) {
        int c = keys.compare(x.get(i).getKey(), y.get(i).getKey());
        if (c == 0) {
          c = values.compare(x.get(i).getValue(), y.get(i).getValue());
        }
        if (c != 0) {
          return c;
        }
      }
      return Integer.compare(x.size(), y.size());
    };
  }

  private List<Map.Entry<String, String>> sortedPairs(Map<String, String> tags) {
    List<Map.Entry<String, String>> pairs = new ArrayList<>(tags.entrySet());
    pairs.sort(Map.Entry.comparingByKey(keys));
    return pairs;
  }
}
