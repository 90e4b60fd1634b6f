package org.casebook.tsdb;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.filter.Filter;
import org.apache.hadoop.hbase.filter.FilterList;
import org.apache.hadoop.hbase.filter.FuzzyRowFilter;
import org.apache.hadoop.hbase.filter.RegexStringComparator;
import org.apache.hadoop.hbase.filter.RowFilter;
import org.apache.hadoop.hbase.util.Pair;

/**
 * A server-side row filter for a query's literal tag filters, as OpenTSDB builds one: a regular
 * expression over the row key's bytes (read as ISO-8859-1, one char per byte) that keeps only rows
 * carrying one of the wanted values for each such tag key, so a one-series query over a metric of
 * many series reads that series' rows only. It is a superset: the query engine still applies every
 * filter to what comes back.
 */
final class TagRowFilter {
  private TagRowFilter() {}

  /**
   * The filter for {@code query}'s case-sensitive literal_or filters, given how to find ids, or
   * empty when there is nothing to narrow (no literal filter, or a key filtered in other ways too).
   */
  static Optional<Filter> of(SubQuery query, Uids uids, int keyPrefixBytes, int maxTags) {
    Map<String, List<TagFilter>> byKey = new HashMap<>();
    for (TagFilter f : query.filters()) {
      byKey.computeIfAbsent(f.tagKey(), k -> new ArrayList<>()).add(f);
    }
    // tagk id (as a string of ISO-8859-1 chars, sortable like the bytes) → wanted tagv ids.
    TreeMap<String, List<byte[]>> wanted = new TreeMap<>();
    for (Map.Entry<String, List<TagFilter>> e : byKey.entrySet()) {
      List<TagFilter> fs = e.getValue();
      if (fs.size() != 1 || !fs.get(0).isScanLiteral() || fs.get(0).caseInsensitive()) {
        continue;
      }
      Optional<byte[]> tagk = uids.find(UidKind.TAGK, e.getKey());
      if (tagk.isEmpty()) {
        return Optional.empty();
      }
      List<byte[]> values = new ArrayList<>();
      Set<String> literals = fs.get(0).literals();
      for (String v : literals) {
        uids.find(UidKind.TAGV, v).ifPresent(values::add);
      }
      wanted.put(new String(tagk.get(), StandardCharsets.ISO_8859_1), values);
    }
    if (wanted.isEmpty()) {
      return Optional.empty();
    }
    int pair = 2 * TsdbKeys.UID_WIDTH;
    StringBuilder re = new StringBuilder("^.{").append(keyPrefixBytes).append('}');
    for (Map.Entry<String, List<byte[]>> w : wanted.entrySet()) {
      re.append("(?:.{").append(pair).append("})*");
      re.append(hex(w.getKey().getBytes(StandardCharsets.ISO_8859_1)));
      re.append("(?:");
      if (w.getValue().isEmpty()) {
        re.append("(?!)"); // no value was ever written: nothing can match
      }
      for (int i = 0; i < w.getValue().size(); i++) {
        re.append(i > 0 ? "|" : "").append(hex(w.getValue().get(i)));
      }
      re.append(')');
    }
    re.append("(?:.{").append(pair).append("})*$");
    RegexStringComparator comparator = new RegexStringComparator(re.toString(), Pattern.DOTALL);
    comparator.setCharset(StandardCharsets.ISO_8859_1);
    Filter exact = new RowFilter(CompareOperator.EQUAL, comparator);
    // Before the expression, one fuzzy-row filter per tag key: "this pair at tag position 0, or
    // 1, …". It rejects a row with a byte comparison instead of running the expression, and its
    // seek hint jumps over the rows of other series (to the next row that can hold a wanted pair)
    // instead of reading them one by one. It may let through a row shorter than one of its
    // patterns; the expression after it is exact.
    List<Filter> filters = new ArrayList<>();
    Optional<byte[]> metricId = uids.find(UidKind.METRIC, query.metric());
    for (Map.Entry<String, List<byte[]>> w : wanted.entrySet()) {
      int rules = w.getValue().size() * maxTags;
      if (metricId.isEmpty() || w.getValue().isEmpty() || rules > MAX_FUZZY_RULES) {
        continue;
      }
      byte[] tagk = w.getKey().getBytes(StandardCharsets.ISO_8859_1);
      List<Pair<byte[], byte[]>> patterns = new ArrayList<>(rules);
      for (byte[] tagv : w.getValue()) {
        for (int position = 0; position < maxTags; position++) {
          patterns.add(fuzzyPattern(keyPrefixBytes, metricId.get(), tagk, tagv, position));
        }
      }
      filters.add(new FuzzyRowFilter(patterns));
    }
    if (filters.isEmpty()) {
      return Optional.of(exact);
    }
    filters.add(exact);
    return Optional.of(new FilterList(FilterList.Operator.MUST_PASS_ALL, filters));
  }

  /** More fuzzy patterns than this per tag key: the expression alone. */
  static final int MAX_FUZZY_RULES = 256;

  /**
   * The key of a row holding (tagk, tagv) as its {@code position}-th tag pair, and its mask (0:
   * this byte must match, 1: any byte): salt and hour any, metric id fixed, earlier pairs any.
   */
  static Pair<byte[], byte[]> fuzzyPattern(
      int keyPrefixBytes, byte[] metricId, byte[] tagk, byte[] tagv, int position) {
    int w = TsdbKeys.UID_WIDTH;
    int pairAt = keyPrefixBytes + position * 2 * w;
    byte[] key = new byte[pairAt + 2 * w];
    byte[] mask = new byte[key.length];
    java.util.Arrays.fill(mask, (byte) 1);
    int metricAt = keyPrefixBytes - metricId.length - Integer.BYTES;
    System.arraycopy(metricId, 0, key, metricAt, metricId.length);
    java.util.Arrays.fill(mask, metricAt, metricAt + metricId.length, (byte) 0);
    System.arraycopy(tagk, 0, key, pairAt, w);
    System.arraycopy(tagv, 0, key, pairAt + w, w);
    java.util.Arrays.fill(mask, pairAt, key.length, (byte) 0);
    return new Pair<>(key, mask);
  }

  private static String hex(byte[] bytes) {
    StringBuilder sb = new StringBuilder();
    for (byte b : bytes) {
      sb.append(String.format(Locale.ROOT, "\\x%02X", b & 0xFF));
    }
    return sb.toString();
  }
}
