package org.casebook.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.casebook.docs.CorrectionState.FieldMark;
import org.junit.jupiter.api.Test;

/** The merge rule on values, and the corrections cell's bytes. */
class DocsCorrectionRulesTest {
  private static final DocType BLOG = DefaultTypes.BLOG;
  private static final Set<String> EVERY_FIELD =
      Set.of("title", "content", "author", "created", "url", "views", "likes", "sentiment");

  private static Map<String, Object> values(Object... pairs) {
    Map<String, Object> out = new LinkedHashMap<>();
    for (int i = 0; i < pairs.length; i += 2) {
      out.put((String) pairs[i], pairs[i + 1]);
    }
    return out;
  }

  @Test
  void aPersonMarksWhatTheEditChangesAndACrawlKeepsIt() {
    Map<String, Object> old = values("title", "crawled", "content", "c1", "views", 3L);
    CorrectionRules.Outcome edit =
        CorrectionRules.apply(
            BLOG,
            old,
            values("title", "fixed", "content", "c1", "views", 9L),
            Set.of("title", "content", "views"),
            null,
            Author.person("ann"),
            100,
            1_789_000_000_000L);
    assertThat(edit.state().marks()).containsOnlyKeys("title");
    assertThat(edit.state().history()).containsExactly(100L);
    assertThat(edit.entry().side()).isEqualTo(HistoryEntry.PERSON);
    assertThat(edit.entry().by()).isEqualTo("ann");
    assertThat(edit.entry().changes())
        .extracting(FieldChange::field)
        .containsExactly("title", "views");

    CorrectionRules.Outcome crawl =
        CorrectionRules.apply(
            BLOG,
            edit.values(),
            values("title", "crawled again", "content", "c2"),
            EVERY_FIELD,
            edit.state(),
            Author.CRAWL,
            200,
            1_789_000_001_000L);
    assertThat(crawl.values()).isEqualTo(values("title", "fixed", "content", "c2"));
    assertThat(crawl.state().marks()).isEqualTo(edit.state().marks());
    assertThat(crawl.state().history()).containsExactly(100L, 200L);
    assertThat(crawl.entry().side()).isEqualTo(HistoryEntry.CRAWL);
    assertThat(crawl.entry().changes())
        .containsExactly(
            new FieldChange("content", "c1", "c2", false, false),
            new FieldChange("views", 9L, null, false, false),
            new FieldChange("title", "fixed", "crawled again", false, true));

    CorrectionRules.Outcome same =
        CorrectionRules.apply(
            BLOG, crawl.values(), crawl.values(), EVERY_FIELD, crawl.state(), Author.CRAWL, 300, 0);
    assertThat(same.changed()).isFalse();
    assertThat(same.entry()).isNull();
    assertThat(same.state()).isNull();

    CorrectionRules.Outcome neverEdited =
        CorrectionRules.apply(
            BLOG, old, values("title", "x"), EVERY_FIELD, null, Author.CRAWL, 400, 0);
    assertThat(neverEdited.values()).isEqualTo(values("title", "x"));
    assertThat(neverEdited.entry()).as("no history for a document nobody edited").isNull();
    assertThat(neverEdited.state()).isNull();
  }

  @Test
  void longValuesAreCutAndSaySo() {
    boolean[] cut = {false};
    assertThat(CorrectionRules.cut("short", cut)).isEqualTo("short");
    assertThat(cut[0]).isFalse();
    String emoji = "a".repeat(CorrectionRules.VALUE_CHARS - 1) + "😀";
    assertThat((String) CorrectionRules.cut(emoji + "tail", cut))
        .as("a character is never split")
        .hasSize(CorrectionRules.VALUE_CHARS - 1);
    assertThat(cut[0]).isTrue();
  }

  @Test
  void theCorrectionsCellRoundTrips() {
    Map<String, FieldMark> marks = new LinkedHashMap<>();
    marks.put(
        "title",
        new FieldMark("王 编辑", 1_789_000_000_000L, 77, "修正".getBytes(StandardCharsets.UTF_8)));
    marks.put("tags", new FieldMark("person", 5, 78, null));
    CorrectionState state = new CorrectionState(marks, List.of(77L, 78L));
    CorrectionState back = CorrectionCodec.decode(CorrectionCodec.encode(state)).orElseThrow();
    assertThat(back.history()).containsExactly(77L, 78L);
    assertThat(back.marks()).containsOnlyKeys("title", "tags");
    assertThat(back.marks().get("title").by()).isEqualTo("王 编辑");
    assertThat(back.marks().get("title").value()).isEqualTo("修正".getBytes(StandardCharsets.UTF_8));
    assertThat(back.marks().get("tags").value()).isNull();
    assertThat(back.marks().get("tags").version()).isEqualTo(78);
    assertThat(CorrectionCodec.decode(null)).isEmpty();
    assertThat(
            CorrectionCodec.decode(
                CorrectionCodec.encode(new CorrectionState(Map.of(), List.of()))))
        .hasValueSatisfying(s -> assertThat(s.marks()).isEmpty());
  }
}
