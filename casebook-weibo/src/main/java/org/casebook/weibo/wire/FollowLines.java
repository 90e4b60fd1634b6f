package org.casebook.weibo.wire;

import java.util.ArrayList;
import java.util.List;
import org.casebook.core.InvalidInputException;
import org.casebook.weibo.Follow;

/**
 * The text format of a social graph to import: one {@code follower<TAB>followee} per line (ids
 * cannot contain tabs); blank lines and lines starting with {@code #} are skipped.
 */
public final class FollowLines {
  private FollowLines() {}

  /**
   * The edges of {@code lines}; a malformed line is invalid input of {@code field} naming {@code
   * source} and the line number.
   */
  public static List<Follow> parse(List<String> lines, String source, String field) {
    List<Follow> edges = new ArrayList<>();
    int lineNo = 0;
    for (String line : lines) {
      lineNo++;
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      String[] parts = line.split("\t", -1);
      InvalidInputException.check(
          parts.length == 2, field, source + ":" + lineNo + ": expected 'follower<TAB>followee'");
      edges.add(new Follow(parts[0], parts[1]));
    }
    return List.copyOf(edges);
  }
}
