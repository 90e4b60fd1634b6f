package org.casebook.banknote;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The watch list in memory, immutable: exact serials in a hash map, patterns in one trie per serial
 * length whose nodes have a child per character and one for {@code ?}. A note costs a hash lookup
 * and a walk of the trie along its serial, following at each position the character's branch and
 * the {@code ?} branch: the work grows with the serial's length and the patterns that share its
 * prefixes, not with the number of entries.
 *
 * <p>A serial matching several entries matches each of them (each makes its own hit).
 */
final class WatchMatcher {
  static final WatchMatcher EMPTY = new WatchMatcher(List.of());

  private static final class Node {
    private final Map<Character, Node> children = new HashMap<>();
    private Node any;
    private List<WatchEntry> entries;
  }

  private final Map<String, List<WatchEntry>> exact = new HashMap<>();
  private final Node[] byLength = new Node[NoteRules.MAX_SERIAL + 1];
  private final List<WatchEntry> entries;

  WatchMatcher(List<WatchEntry> entries) {
    this.entries = List.copyOf(entries);
    for (WatchEntry e : this.entries) {
      String p = e.pattern();
      if (!e.wildcard()) {
        exact.computeIfAbsent(p, k -> new ArrayList<>(1)).add(e);
        continue;
      }
      Node node = byLength[p.length()];
      if (node == null) {
        node = new Node();
        byLength[p.length()] = node;
      }
      for (int i = 0; i < p.length(); i++) {
        char c = p.charAt(i);
        Node next;
        if (c == WatchEntry.ANY) {
          if (node.any == null) {
            node.any = new Node();
          }
          next = node.any;
        } else {
          next = node.children.computeIfAbsent(c, k -> new Node());
        }
        node = next;
      }
      if (node.entries == null) {
        node.entries = new ArrayList<>(1);
      }
      node.entries.add(e);
    }
  }

  /** The entries of the list, as loaded. */
  List<WatchEntry> entries() {
    return entries;
  }

  int size() {
    return entries.size();
  }

  /** The entries {@code n} matches (serial and, where the entry names one, denomination). */
  List<WatchEntry> match(Note n) {
    return match(n.serial(), n.denomination());
  }

  List<WatchEntry> match(String serial, int denomination) {
    if (entries.isEmpty()) {
      return List.of();
    }
    List<WatchEntry> out = new ArrayList<>(0);
    List<WatchEntry> same = exact.get(serial);
    if (same != null) {
      for (WatchEntry e : same) {
        if (e.watches(denomination)) {
          out.add(e);
        }
      }
    }
    if (serial.length() < byLength.length) {
      walk(byLength[serial.length()], serial, 0, denomination, out);
    }
    return out;
  }

  private static void walk(
      Node node, String serial, int at, int denomination, List<WatchEntry> out) {
    if (node == null) {
      return;
    }
    if (at == serial.length()) {
      for (WatchEntry e : node.entries) {
        if (e.watches(denomination)) {
          out.add(e);
        }
      }
      return;
    }
    walk(node.children.get(serial.charAt(at)), serial, at + 1, denomination, out);
    walk(node.any, serial, at + 1, denomination, out);
  }
}
