package org.casebook.bench;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Compares two {@code /api/query} answers as OpenTSDB's clients read them: groups in order, tags as
 * maps, aggregate tags as sets, the same timestamps, values as numbers of the same kind (integer or
 * float, floats within a relative 1e-9).
 */
final class TsdbAnswers {
  private TsdbAnswers() {}

  /** Null when the answers match, else what differs first. */
  static String difference(JsonNode ours, JsonNode theirs) {
    return difference(ours, theirs, "OpenTSDB's");
  }

  /**
   * Null when the answers match, else what differs first; {@code theirName} names the second answer
   * in the text ({@code "OpenTSDB's"}, {@code "the raw path's"}).
   */
  static String difference(JsonNode ours, JsonNode theirs, String theirName) {
    if (ours.size() != theirs.size()) {
      return ours.size() + " groups vs " + theirName + " " + theirs.size();
    }
    for (int i = 0; i < ours.size(); i++) {
      JsonNode a = ours.get(i);
      JsonNode b = theirs.get(i);
      if (!a.get("tags").equals(b.get("tags"))) {
        return "group " + i + " tags " + a.get("tags") + " vs " + b.get("tags");
      }
      if (!sortedTexts(a.get("aggregateTags")).equals(sortedTexts(b.get("aggregateTags")))) {
        return "group "
            + i
            + " aggregateTags "
            + a.get("aggregateTags")
            + " vs "
            + b.get("aggregateTags");
      }
      Map<String, JsonNode> x = fields(a.get("dps"));
      Map<String, JsonNode> y = fields(b.get("dps"));
      if (!x.keySet().equals(y.keySet())) {
        List<String> onlyOurs = new ArrayList<>(x.keySet());
        onlyOurs.removeAll(y.keySet());
        List<String> onlyTheirs = new ArrayList<>(y.keySet());
        onlyTheirs.removeAll(x.keySet());
        return "group "
            + i
            + " timestamps: only ours "
            + head(onlyOurs)
            + ", only "
            + theirName
            + " "
            + head(onlyTheirs);
      }
      for (Map.Entry<String, JsonNode> e : x.entrySet()) {
        JsonNode u = e.getValue();
        JsonNode v = y.get(e.getKey());
        if (!sameValue(u, v)) {
          return "group " + i + " at " + e.getKey() + ": " + u + " vs " + theirName + " " + v;
        }
      }
    }
    return null;
  }

  private static boolean sameValue(JsonNode u, JsonNode v) {
    if (u.isNull() || v.isNull() || u.isTextual() || v.isTextual()) {
      return u.equals(v);
    }
    if (u.isIntegralNumber() != v.isIntegralNumber()) {
      return false;
    }
    double a = u.asDouble();
    double b = v.asDouble();
    return a == b || Math.abs(a - b) <= 1e-9 * Math.max(Math.abs(a), Math.abs(b));
  }

  private static List<String> head(List<String> l) {
    return l.size() > 5 ? l.subList(0, 5) : l;
  }

  private static List<String> sortedTexts(JsonNode array) {
    List<String> out = new ArrayList<>();
    array.forEach(n -> out.add(n.asText()));
    out.sort(null);
    return out;
  }

  private static Map<String, JsonNode> fields(JsonNode o) {
    Map<String, JsonNode> m = new LinkedHashMap<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = o.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      m.put(e.getKey(), e.getValue());
    }
    return m;
  }
}
