package org.casebook.banknote;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.casebook.core.InvalidInputException;

/**
 * Branch locations as CSV, one a line: {@code branch,lat,lon,name} (RFC 4180 quoting, so an id or
 * name may hold a comma or a quote; {@code name} may be empty or left out), an optional header line
 * {@code branch,lat,lon,name}, blank lines ignored. The whole file is checked before anything is
 * stored: a bad line is an {@link InvalidInputException} naming its field, its message the line
 * number.
 */
final class BranchCsv {
  private static final String HEADER = "branch,lat,lon,name";

  private BranchCsv() {}

  /** The locations of {@code text}, in file order; a branch given twice is a bad line. */
  static List<BranchLocation> parse(String text) {
    String body = text.startsWith("\uFEFF") ? text.substring(1) : text;
    List<BranchLocation> out = new ArrayList<>();
    Map<String, Integer> seen = new HashMap<>();
    String[] lines = body.split("\r\n|\n|\r", -1);
    for (int i = 0; i < lines.length; i++) {
      String line = lines[i];
      int number = i + 1;
      if (line.isBlank() || (number == 1 && line.strip().equalsIgnoreCase(HEADER))) {
        continue;
      }
      List<String> fields = fields(line, number);
      InvalidInputException.check(
          fields.size() == 3 || fields.size() == 4,
          "csv",
          "line " + number + ": expected branch,lat,lon,name, got " + fields.size() + " fields");
      try {
        BranchLocation b =
            BranchLocation.of(
                fields.get(0),
                number(fields.get(1), "lat"),
                number(fields.get(2), "lon"),
                fields.size() == 4 ? fields.get(3) : null);
        Integer before = seen.putIfAbsent(b.branch(), number);
        InvalidInputException.check(
            before == null, "branch", "branch " + b.branch() + " is also on line " + before);
        out.add(b);
      } catch (InvalidInputException e) {
        throw new InvalidInputException(e.field(), "line " + number + ": " + e.getMessage());
      }
    }
    return out;
  }

  private static Double number(String value, String field) {
    if (value.isBlank()) {
      return null;
    }
    try {
      return Double.valueOf(value.strip());
    } catch (NumberFormatException e) {
      throw new InvalidInputException(field, field + " must be a number, got '" + value + "'");
    }
  }

  /** The fields of one line: quoted ones unquoted ({@code ""} is a quote inside them). */
  private static List<String> fields(String line, int number) {
    List<String> out = new ArrayList<>(4);
    StringBuilder field = new StringBuilder();
    int i = 0;
    while (true) {
      if (i < line.length() && line.charAt(i) == '"') {
        i++;
        while (true) {
          InvalidInputException.check(
              i < line.length(), "csv", "line " + number + ": a quoted field is not closed");
          char c = line.charAt(i++);
          if (c == '"') {
            if (i < line.length() && line.charAt(i) == '"') {
              field.append('"');
              i++;
            } else {
              break;
            }
          } else {
            field.append(c);
          }
        }
        InvalidInputException.check(
            i == line.length() || line.charAt(i) == ',',
            "csv",
            "line " + number + ": text after a quoted field");
      } else {
        while (i < line.length() && line.charAt(i) != ',') {
          field.append(line.charAt(i++));
        }
      }
      out.add(field.toString());
      field.setLength(0);
      if (i >= line.length()) {
        return out;
      }
      i++; // the comma
    }
  }
}
