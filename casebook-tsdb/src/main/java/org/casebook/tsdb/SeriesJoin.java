package org.casebook.tsdb;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.casebook.core.InvalidInputException;

/**
 * Matches the series of an expression's variables by their tags, as OpenTSDB 2.4's {@code
 * UnionIterator} and {@code IntersectionIterator} do, and lists the timestamps the expression is
 * evaluated at.
 *
 * <p>A series' join key is its tags in tag key order (with {@code useQueryTags}, only the keys its
 * query's filters name), then, with {@code includeAggTags}, its aggregated tag keys; a series
 * without tags has the empty key whatever it aggregated. Two series of one variable with the same
 * key: the later one is joined, and the earlier one's timestamps still count (as in OpenTSDB). Rows
 * come in key order. OpenTSDB orders keys by the ids of the names (the order they were first
 * written); ids are not part of a query's answer, so here names are compared, which is the same
 * order where names were first written in sorted order.
 */
final class SeriesJoin {
  /** Compares keys name by name; a key that is a prefix of another comes first. */
  private static final Comparator<List<String>> KEY_ORDER =
      (a, b) -> {
        for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
          int c = a.get(i).compareTo(b.get(i));
          if (c != 0) {
            return c;
          }
        }
        return Integer.compare(a.size(), b.size());
      };

  /** The joined rows and the timestamps. */
  static final class Joined {
    private final List<int[]> rows;
    private final long[] timestamps;

    Joined(List<int[]> rows, long[] timestamps) {
      this.rows = rows;
      this.timestamps = timestamps;
    }

    /**
     * Per output series, the index of each variable's series joined into it (-1: the variable has
     * none, in a union).
     */
    List<int[]> rows() {
      return rows;
    }

    /** Every timestamp of the series taking part, ascending, each once. */
    long[] timestamps() {
      return timestamps;
    }
  }

  private SeriesJoin() {}

  /**
   * Joins the series of each variable ({@code perVariable.get(v)}); {@code field} names the
   * expression in the error when an intersection finds nothing.
   */
  static Joined join(
      List<List<ExpressionSeries>> perVariable,
      ExpressionRequest.JoinOperator operator,
      boolean useQueryTags,
      boolean includeAggTags,
      String field) {
    int variables = perVariable.size();
    TreeMap<List<String>, int[]> byKey = new TreeMap<>(KEY_ORDER);
    boolean anySeries = false;
    for (int v = 0; v < variables; v++) {
      List<ExpressionSeries> series = perVariable.get(v);
      for (int s = 0; s < series.size(); s++) {
        anySeries = true;
        int[] slots =
            byKey.computeIfAbsent(
                key(series.get(s), useQueryTags, includeAggTags),
                k -> {
                  int[] empty = new int[variables];
                  Arrays.fill(empty, -1);
                  return empty;
                });
        slots[v] = s;
      }
    }
    if (operator == ExpressionRequest.JoinOperator.INTERSECTION) {
      byKey.values().removeIf(slots -> Arrays.stream(slots).anyMatch(s -> s < 0));
      if (anySeries && byKey.isEmpty()) {
        throw new InvalidInputException(
            field, "No intersections found: no tag set is in every variable's series");
      }
    }
    List<long[]> live = new ArrayList<>();
    for (int v = 0; v < variables; v++) {
      for (ExpressionSeries s : perVariable.get(v)) {
        if (operator == ExpressionRequest.JoinOperator.UNION
            || byKey.containsKey(key(s, useQueryTags, includeAggTags))) {
          live.add(s.timestamps);
        }
      }
    }
    return new Joined(new ArrayList<>(byKey.values()), mergeTimestamps(live));
  }

  /** The join key of a series, as a list of names (OpenTSDB concatenates their ids). */
  static List<String> key(ExpressionSeries s, boolean useQueryTags, boolean includeAggTags) {
    if (s.tags.isEmpty()) {
      return List.of();
    }
    List<String> key = new ArrayList<>();
    for (Map.Entry<String, String> t : s.tags.entrySet()) {
      if (!useQueryTags || s.queryTagKeys.contains(t.getKey())) {
        key.add(t.getKey());
        key.add(t.getValue());
      }
    }
    if (includeAggTags) {
      key.addAll(s.aggregatedTags);
    }
    return key;
  }

  /** The union of ascending timestamp arrays, ascending, without repeats. */
  static long[] mergeTimestamps(List<long[]> arrays) {
    int total = 0;
    for (long[] a : arrays) {
      total += a.length;
    }
    long[] all = new long[total];
    int at = 0;
    for (long[] a : arrays) {
      System.arraycopy(a, 0, all, at, a.length);
      at += a.length;
    }
    Arrays.sort(all);
    int unique = 0;
    for (int i = 0; i < all.length; i++) {
      if (unique == 0 || all[unique - 1] != all[i]) {
        all[unique++] = all[i];
      }
    }
    return Arrays.copyOf(all, unique);
  }

  /**
   * The order OpenTSDB 2.4 walks an expression's variables in: that of the {@code HashMap}s its
   * iterators keep them in (what decides whose tags an output series shows). Rebuilt here with the
   * same maps, filled the same way.
   */
  static List<String> openTsdbOrder(Collection<String> names) {
    Map<String, Boolean> results = new HashMap<>();
    names.forEach(n -> results.put(n, true));
    Map<String, Boolean> queries = new HashMap<>(names.size());
    results.keySet().forEach(n -> queries.put(n, true));
    Map<String, Boolean> current = new HashMap<>(names.size());
    queries.keySet().forEach(n -> current.put(n, true));
    return new ArrayList<>(current.keySet());
  }
}
