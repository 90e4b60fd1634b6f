package org.casebook.tsdb;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * What a sub-query's literal tag filters let a scan skip, as ids: a row is read only if, for each
 * wanted tag key, it carries one of the wanted values, as OpenTSDB narrows its scans. A superset of
 * the answer: the query engine still applies every filter to what comes back.
 *
 * @param metricId the metric's id, if it has one (the fuzzy part of the filter needs it)
 * @param wanted per tag key (in id order), the ids of the values a row may carry for it; an empty
 *     list when none of the values was ever written (nothing can match)
 * @param maxTags the most tag pairs a row can have (the positions a pair can take)
 */
record TagScanPlan(Optional<byte[]> metricId, List<WantedTag> wanted, int maxTags) {
  TagScanPlan {
    wanted = List.copyOf(wanted);
  }

  /** A tag key's id and the ids of the values a row may carry for it. */
  record WantedTag(byte[] tagk, List<byte[]> tagvs) {
    WantedTag {
      tagvs = List.copyOf(tagvs);
    }
  }

  /**
   * The plan for {@code query}'s case-sensitive literal_or filters, given how to find ids, or empty
   * when there is nothing to narrow (no literal filter, or a key filtered in other ways too).
   */
  static Optional<TagScanPlan> of(SubQuery query, Uids uids, int maxTags) {
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
      for (String v : fs.get(0).literals()) {
        uids.find(UidKind.TAGV, v).ifPresent(values::add);
      }
      wanted.put(new String(tagk.get(), StandardCharsets.ISO_8859_1), values);
    }
    if (wanted.isEmpty()) {
      return Optional.empty();
    }
    List<WantedTag> tags = new ArrayList<>(wanted.size());
    wanted.forEach(
        (tagk, values) ->
            tags.add(new WantedTag(tagk.getBytes(StandardCharsets.ISO_8859_1), values)));
    return Optional.of(new TagScanPlan(uids.find(UidKind.METRIC, query.metric()), tags, maxTags));
  }
}
