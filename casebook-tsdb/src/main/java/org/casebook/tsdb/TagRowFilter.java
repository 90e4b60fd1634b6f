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
import org.apache.hadoop.hbase.filter.RegexStringComparator;
import org.apache.hadoop.hbase.filter.RowFilter;

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
  static Optional<Filter> of(SubQuery query, Uids uids, int keyPrefixBytes) {
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
    return Optional.of(new RowFilter(CompareOperator.EQUAL, comparator));
  }

  private static String hex(byte[] bytes) {
    StringBuilder sb = new StringBuilder();
    for (byte b : bytes) {
      sb.append(String.format(Locale.ROOT, "\\x%02X", b & 0xFF));
    }
    return sb.toString();
  }
}
