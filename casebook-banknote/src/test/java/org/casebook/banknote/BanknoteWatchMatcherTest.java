package org.casebook.banknote;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.casebook.core.InvalidInputException;
import org.junit.jupiter.api.Test;

class BanknoteWatchMatcherTest {
  private static final Instant T = Instant.parse("2026-11-28T00:00:00Z");

  static WatchEntry entry(String pattern) {
    return WatchEntry.of(pattern, null, "counterfeit run", "ops", T);
  }

  static Set<String> ids(List<WatchEntry> entries) {
    Set<String> out = new HashSet<>();
    entries.forEach(e -> out.add(e.pattern() + "/" + e.denomination()));
    return out;
  }

  /** The specification the trie must agree with: position by position, same length. */
  static boolean naive(WatchEntry e, String serial, int denomination) {
    String p = e.pattern();
    if (p.length() != serial.length() || !e.watches(denomination)) {
      return false;
    }
    for (int i = 0; i < p.length(); i++) {
      if (p.charAt(i) != WatchEntry.ANY && p.charAt(i) != serial.charAt(i)) {
        return false;
      }
    }
    return true;
  }

  @Test
  void exactWildcardsAndLengths() {
    WatchMatcher m =
        new WatchMatcher(List.of(entry("XN15115812"), entry("xn15??5812"), entry("AB12??????")));
    assertThat(ids(m.match("XN15115812", 100))).containsOnly("XN15115812/null", "XN15??5812/null");
    assertThat(ids(m.match("XN15995812", 100))).containsOnly("XN15??5812/null");
    assertThat(m.match("XN15115813", 100)).isEmpty();
    assertThat(ids(m.match("AB12000000", 5))).containsOnly("AB12??????/null");
    assertThat(m.match("AB1200000", 5)).as("a pattern matches its own length only").isEmpty();
    assertThat(m.match("AB120000000", 5)).isEmpty();
    assertThat(m.match("AB13000000", 5)).isEmpty();
    assertThat(WatchMatcher.EMPTY.match("XN15115812", 100)).isEmpty();
  }

  @Test
  void aSerialMatchingSeveralEntriesMatchesEachAndDenominationsNarrow() {
    WatchEntry hundred = WatchEntry.of("XN15115812", 100, "only 100s", "ops", T);
    WatchMatcher m =
        new WatchMatcher(
            List.of(hundred, entry("XN15??????"), entry("XN??115812"), entry("????115812")));
    assertThat(m.match("XN15115812", 100)).hasSize(4);
    assertThat(m.match("XN15115812", 50)).hasSize(3).doesNotContain(hundred);
    assertThat(m.size()).isEqualTo(4);
  }

  @Test
  void agreesWithThePositionByPositionRuleOnRandomListsAndSerials() {
    SplittableRandom r = new SplittableRandom(2);
    String alphabet = "AB0123";
    List<WatchEntry> entries = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    while (entries.size() < 300) {
      int len = 6 + r.nextInt(3);
      StringBuilder p = new StringBuilder();
      int fixed = 0;
      for (int i = 0; i < len; i++) {
        if (r.nextInt(3) == 0) {
          p.append('?');
        } else {
          p.append(alphabet.charAt(r.nextInt(alphabet.length())));
          fixed++;
        }
      }
      Integer d = r.nextInt(4) == 0 ? 100 : null;
      if (fixed >= WatchEntry.MIN_FIXED && seen.add(p + "/" + d)) {
        entries.add(WatchEntry.of(p.toString(), d, "n", "ops", T));
      }
    }
    WatchMatcher m = new WatchMatcher(entries);
    int matched = 0;
    for (int k = 0; k < 20_000; k++) {
      int len = 6 + r.nextInt(3);
      StringBuilder s = new StringBuilder();
      for (int i = 0; i < len; i++) {
        s.append(alphabet.charAt(r.nextInt(alphabet.length())));
      }
      int denomination = r.nextBoolean() ? 100 : 50;
      List<WatchEntry> expected =
          entries.stream().filter(e -> naive(e, s.toString(), denomination)).toList();
      assertThat(m.match(s.toString(), denomination))
          .as(s.toString())
          .containsExactlyInAnyOrderElementsOf(expected);
      matched += expected.isEmpty() ? 0 : 1;
    }
    assertThat(matched).as("the random lists match some serials").isGreaterThan(200);
  }

  @Test
  void entriesAreCheckedNamingTheField() {
    assertThat(entry("ab12??????").pattern()).isEqualTo("AB12??????");
    assertThat(entry("AB12??????").id()).isEqualTo(entry("ab12??????").id());
    assertThat(WatchEntry.of("AB12??????", 100, "n", "ops", T).id())
        .isNotEqualTo(entry("AB12??????").id());
    assertThat(entry("US12345678*").wildcard()).as("* is a star note's character").isFalse();
    assertField(() -> entry("AB12?"), "pattern");
    assertField(() -> entry("AB1??????????"), "pattern");
    assertField(() -> entry("AB????????"), "pattern");
    assertField(() -> entry("AB 12?????"), "pattern");
    assertField(() -> entry(null), "pattern");
    assertField(() -> WatchEntry.of("AB12??????", 0, "n", "ops", T), "denomination");
    assertField(() -> WatchEntry.of("AB12??????", null, " ", "ops", T), "note");
    assertField(() -> WatchEntry.of("AB12??????", null, "a\nb", "ops", T), "note");
    assertField(() -> WatchEntry.of("AB12??????", null, "n", null, T), "addedBy");
  }

  private static void assertField(Runnable r, String field) {
    assertThatThrownBy(r::run)
        .isInstanceOfSatisfying(
            InvalidInputException.class, e -> assertThat(e.field()).isEqualTo(field));
  }
}
