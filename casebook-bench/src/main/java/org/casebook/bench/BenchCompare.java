package org.casebook.bench;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * {@code casebook bench compare A.json B.json}: every number the two result files have at the same
 * place, side by side with B ÷ A. A place is the path of field names; in a list, an element that
 * names itself (a {@code step}, {@code name}, {@code page}, {@code system} or {@code query} field)
 * is found by that name, so rows compare by step even when a run added or dropped one; the second
 * element of a repeated name is {@code name#2}, and so on.
 */
final class BenchCompare {
  private static final List<String> NAMING_FIELDS =
      List.of("step", "name", "page", "system", "query", "case");

  /** One number present in both files. */
  record Line(String path, double a, double b) {
    double ratio() {
      return a == 0 ? Double.NaN : b / a;
    }
  }

  private BenchCompare() {}

  static List<Line> compare(Path a, Path b, Pattern only) {
    Map<String, Double> left = numbers(BenchResults.read(a));
    Map<String, Double> right = numbers(BenchResults.read(b));
    List<Line> out = new ArrayList<>();
    left.forEach(
        (path, v) -> {
          Double w = right.get(path);
          if (w != null && only.matcher(path).find()) {
            out.add(new Line(path, v, w));
          }
        });
    return out;
  }

  /** Every numeric leaf by its path, in document order. */
  static Map<String, Double> numbers(JsonNode root) {
    Map<String, Double> out = new LinkedHashMap<>();
    walk(root, "", out);
    return out;
  }

  private static void walk(JsonNode node, String path, Map<String, Double> out) {
    if (node.isNumber()) {
      out.put(path.isEmpty() ? "/" : path, node.asDouble());
    } else if (node.isObject()) {
      node.fields().forEachRemaining(e -> walk(e.getValue(), path + "/" + e.getKey(), out));
    } else if (node.isArray()) {
      Map<String, Integer> seen = new java.util.HashMap<>();
      for (int i = 0; i < node.size(); i++) {
        String name = elementName(node.get(i), i);
        // A name that repeats (e.g. one case at several sizes) is told apart by its occurrence.
        int n = seen.merge(name, 1, Integer::sum);
        walk(node.get(i), path + "[" + name + (n > 1 ? "#" + n : "") + "]", out);
      }
    }
  }

  private static String elementName(JsonNode element, int index) {
    if (element.isObject()) {
      List<String> parts = new ArrayList<>();
      for (String f : NAMING_FIELDS) {
        JsonNode v = element.get(f);
        if (v != null && v.isValueNode()) {
          parts.add(f + "=" + v.asText());
        }
      }
      if (!parts.isEmpty()) {
        return String.join(",", parts);
      }
    }
    return Integer.toString(index);
  }

  static String table(Path a, Path b, List<Line> lines) {
    StringBuilder out = new StringBuilder();
    out.append("A: ").append(a).append('\n').append("B: ").append(b).append('\n');
    int width = Math.max(4, lines.stream().mapToInt(l -> l.path().length()).max().orElse(4));
    out.append(
        String.format(Locale.ROOT, "%-" + width + "s %14s %14s %8s%n", "path", "A", "B", "B / A"));
    for (Line l : lines) {
      out.append(
          String.format(
              Locale.ROOT,
              "%-" + width + "s %14s %14s %8s%n",
              l.path(),
              number(l.a()),
              number(l.b()),
              Double.isNaN(l.ratio()) ? "—" : String.format(Locale.ROOT, "%.2f", l.ratio())));
    }
    return out.toString();
  }

  private static String number(double v) {
    return v == Math.rint(v) && Math.abs(v) < 1e15
        ? String.format(Locale.ROOT, "%,d", (long) v)
        : String.format(Locale.ROOT, "%,.3f", v);
  }
}
