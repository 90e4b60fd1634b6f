package org.casebook.tsdb;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.filter.Filter;
import org.apache.hadoop.hbase.filter.FilterList;
import org.apache.hadoop.hbase.filter.FuzzyRowFilter;
import org.apache.hadoop.hbase.filter.RegexStringComparator;
import org.apache.hadoop.hbase.filter.RowFilter;
import org.apache.hadoop.hbase.util.Pair;

/**
 * The server-side row filter of a {@link TagScanPlan}, as OpenTSDB builds one: a regular expression
 * over the row key's bytes (read as ISO-8859-1, one char per byte) that keeps only rows carrying
 * one of the wanted values for each wanted tag key, so a one-series query over a metric of many
 * series reads that series' rows only; in front of it fuzzy-row filters that skip other series'
 * rows by seeking. Used by the point store's scans.
 */
final class TagRowFilter {
  /** More fuzzy patterns than this per tag key: the expression alone. */
  static final int MAX_FUZZY_RULES = 256;

  private TagRowFilter() {}

  static Filter of(TagScanPlan plan, TsdbKeys.DataRows keys) {
    StringBuilder re = new StringBuilder("^.{").append(keys.prefixBytes()).append('}');
    for (TagScanPlan.WantedTag w : plan.wanted()) {
      re.append("(?:.{").append(TsdbKeys.TAG_PAIR_WIDTH).append("})*");
      re.append(hex(w.tagk()));
      re.append("(?:");
      if (w.tagvs().isEmpty()) {
        re.append("(?!)"); // no value was ever written: nothing can match
      }
      for (int i = 0; i < w.tagvs().size(); i++) {
        re.append(i > 0 ? "|" : "").append(hex(w.tagvs().get(i)));
      }
      re.append(')');
    }
    re.append("(?:.{").append(TsdbKeys.TAG_PAIR_WIDTH).append("})*$");
    RegexStringComparator comparator = new RegexStringComparator(re.toString(), Pattern.DOTALL);
    comparator.setCharset(StandardCharsets.ISO_8859_1);
    Filter exact = new RowFilter(CompareOperator.EQUAL, comparator);
    // Before the expression, one fuzzy-row filter per tag key: "this pair at tag position 0, or
    // 1, …". It rejects a row with a byte comparison instead of running the expression, and its
    // seek hint jumps over the rows of other series (to the next row that can hold a wanted pair)
    // instead of reading them one by one. It may let through a row shorter than one of its
    // patterns; the expression after it is exact.
    List<Filter> filters = new ArrayList<>();
    for (TagScanPlan.WantedTag w : plan.wanted()) {
      int rules = w.tagvs().size() * plan.maxTags();
      if (plan.metricId().isEmpty() || w.tagvs().isEmpty() || rules > MAX_FUZZY_RULES) {
        continue;
      }
      List<Pair<byte[], byte[]>> patterns = new ArrayList<>(rules);
      for (byte[] tagv : w.tagvs()) {
        for (int position = 0; position < plan.maxTags(); position++) {
          byte[][] p = keys.fuzzyPattern(plan.metricId().get(), w.tagk(), tagv, position);
          patterns.add(new Pair<>(p[0], p[1]));
        }
      }
      filters.add(new FuzzyRowFilter(patterns));
    }
    if (filters.isEmpty()) {
      return exact;
    }
    filters.add(exact);
    return new FilterList(FilterList.Operator.MUST_PASS_ALL, filters);
  }

  private static String hex(byte[] bytes) {
    StringBuilder sb = new StringBuilder();
    for (byte b : bytes) {
      sb.append(String.format(Locale.ROOT, "\\x%02X", b & 0xFF));
    }
    return sb.toString();
  }
}
