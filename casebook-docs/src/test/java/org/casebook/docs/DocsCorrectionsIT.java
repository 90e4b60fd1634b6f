package org.casebook.docs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.casebook.core.HBaseRuntime;
import org.casebook.core.InvalidInputException;
import org.casebook.core.Json;
import org.casebook.core.NotFoundException;
import org.casebook.core.Platform;
import org.casebook.core.PreconditionFailedException;
import org.casebook.core.page.PageRequest;
import org.casebook.core.testing.EmbeddedHBase;
import org.casebook.core.testing.TestIds;
import org.casebook.docs.wire.BulkNdjson;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Seed 002's "人工修改后写回": a person corrects a field over the version read, the crawler re-crawls the
 * page with a bulk {@code index}, and the correction survives while the other fields update; the
 * history lists both sides; dropping the correction lets the next crawl win; deleting the document
 * takes its corrections and history with it.
 */
@ExtendWith(EmbeddedHBase.class)
class DocsCorrectionsIT {
  private HBaseRuntime runtime;
  private DocsTestStore store;
  private DocsService docs;
  private String run;

  @BeforeEach
  void setUp(HBaseRuntime runtime) {
    this.runtime = runtime;
    store = new DocsTestStore(runtime);
    docs = store.docs;
    run = TestIds.unique("fix");
  }

  @AfterEach
  void tearDown() {
    store.close();
  }

  private String id(String path) {
    return "https://" + run + ".example.com/" + path;
  }

  /** A crawl of the page {@code id}: every field set, {@code round} telling the crawls apart. */
  private static Map<String, Object> crawl(String id, String title, String round) {
    Map<String, Object> f = new LinkedHashMap<>();
    f.put("title", title);
    f.put("content", "正文 " + round);
    f.put("author", "作者 " + round);
    f.put("created", "2026-09-10T08:00:00Z");
    f.put("url", id);
    f.put("views", (long) round.hashCode() & 0xffff);
    f.put("tags", List.of("tag-" + round));
    return f;
  }

  private BulkItem index(String id, Map<String, Object> fields) {
    String lines =
        "{\"index\":{\"_index\":\"blog\",\"_id\":"
            + Json.write(id)
            + "}}\n"
            + Json.write(fields)
            + "\n";
    List<BulkItem> items = new ArrayList<>();
    docs.bulk(
        BulkNdjson.actions(new ByteArrayInputStream(lines.getBytes(StandardCharsets.UTF_8))),
        items::add);
    assertThat(items).hasSize(1);
    assertThat(items.get(0).status()).as(items.get(0).error()).isEqualTo(200);
    return items.get(0);
  }

  private List<HistoryEntry> history(String id) {
    return docs.history("blog", id, PageRequest.first(1000)).entries();
  }

  private static Map<String, FieldChange> byField(HistoryEntry e) {
    Map<String, FieldChange> out = new LinkedHashMap<>();
    e.changes().forEach(c -> out.put(c.field(), c));
    return out;
  }

  @Test
  void aCorrectionSurvivesReCrawlsUntilItIsDropped() {
    String id = id("p/1");
    index(id, crawl(id, "Crawled title", "r1"));
    Document read = docs.get("blog", id);
    assertThat(read.corrected()).isEmpty();
    assertThat(history(id)).as("a document nobody edited has no history").isEmpty();

    // A person corrects the title over the version read.
    Document corrected =
        docs.patch(
            "blog", id, Map.of("title", "Corrected title"), OptionalLong.of(read.version()), "ann");
    assertThat(corrected.corrected()).containsOnlyKeys("title");
    assertThat(corrected.corrected().get("title").by()).isEqualTo("ann");
    assertThat(corrected.corrected().get("title").version()).isEqualTo(corrected.version());
    assertThat(docs.get("blog", id)).isEqualTo(corrected);
    assertThatThrownBy(
            () ->
                docs.patch(
                    "blog",
                    id,
                    Map.of("title", "Corrected title"),
                    OptionalLong.of(read.version()),
                    "ann"))
        .as("the same edit sent again is refused, not applied twice")
        .isInstanceOf(PreconditionFailedException.class);

    // The crawler re-crawls the page: every field differs; the title stays as corrected.
    Map<String, Object> second = crawl(id, "Crawled again", "r2");
    BulkItem recrawl = index(id, second);
    Document afterCrawl = docs.get("blog", id);
    Map<String, Object> expected = new LinkedHashMap<>(second);
    expected.put("title", "Corrected title");
    assertThat(afterCrawl.fields()).isEqualTo(expected);
    assertThat(afterCrawl.version()).isEqualTo(recrawl.version());
    assertThat(afterCrawl.corrected()).isEqualTo(corrected.corrected());

    // The history lists both sides, newest first.
    List<HistoryEntry> h = history(id);
    assertThat(h).extracting(HistoryEntry::side).containsExactly("crawl", "person");
    HistoryEntry crawlEntry = h.get(0);
    assertThat(crawlEntry.version()).isEqualTo(recrawl.version());
    assertThat(crawlEntry.by()).isNull();
    Map<String, FieldChange> crawled = byField(crawlEntry);
    assertThat(crawled).containsOnlyKeys("title", "content", "author", "views", "tags");
    assertThat(crawled.get("content").before()).isEqualTo("正文 r1");
    assertThat(crawled.get("content").after()).isEqualTo("正文 r2");
    assertThat(crawled.get("content").kept()).isFalse();
    assertThat(crawled.get("title").kept()).as("offered, kept out").isTrue();
    assertThat(crawled.get("title").before()).isEqualTo("Corrected title");
    assertThat(crawled.get("title").after()).isEqualTo("Crawled again");
    HistoryEntry personEntry = h.get(1);
    assertThat(personEntry.by()).isEqualTo("ann");
    assertThat(personEntry.version()).isEqualTo(corrected.version());
    assertThat(personEntry.changes())
        .containsExactly(
            new FieldChange("title", "Crawled title", "Corrected title", false, false));

    // The same crawl again (or a retried request) changes nothing and records nothing.
    BulkItem again = index(id, second);
    assertThat(again.version()).isEqualTo(recrawl.version());
    assertThat(docs.get("blog", id)).isEqualTo(afterCrawl);
    assertThat(history(id)).hasSize(2);

    // Dropping the correction keeps the value until the next crawl, which then wins.
    Document dropped = docs.dropCorrection("blog", id, "title", OptionalLong.empty(), "bo");
    assertThat(dropped.corrected()).isEmpty();
    assertThat(dropped.fields()).containsEntry("title", "Corrected title");
    assertThat(docs.get("blog", id)).isEqualTo(dropped);
    HistoryEntry drop = history(id).get(0);
    assertThat(drop.side()).isEqualTo("person");
    assertThat(drop.by()).isEqualTo("bo");
    assertThat(drop.dropped()).containsExactly("title");
    assertThat(drop.changes()).isEmpty();
    assertThatThrownBy(() -> docs.dropCorrection("blog", id, "title", OptionalLong.empty(), null))
        .isInstanceOf(NotFoundException.class);
    assertThatThrownBy(() -> docs.dropCorrection("blog", id, "nosuch", OptionalLong.empty(), null))
        .isInstanceOf(InvalidInputException.class)
        .extracting(e -> ((InvalidInputException) e).field())
        .isEqualTo("field");

    Map<String, Object> third = crawl(id, "Third crawl", "r3");
    BulkItem wins = index(id, third);
    assertThat(docs.get("blog", id).fields()).isEqualTo(third);
    HistoryEntry last = history(id).get(0);
    assertThat(last.side()).isEqualTo("crawl");
    assertThat(last.version()).isEqualTo(wins.version());
    assertThat(byField(last).get("title"))
        .isEqualTo(new FieldChange("title", "Corrected title", "Third crawl", false, false));
    assertThat(history(id))
        .extracting(HistoryEntry::side)
        .containsExactly("crawl", "person", "crawl", "person");
  }

  @Test
  void otherWritesWithoutIfMatchKeepCorrectionsAndAnEditMarksOnlyWhatItChanges() {
    String id = id("p/2");
    Map<String, Object> first = crawl(id, "Crawled", "a");
    docs.put("blog", id, first, OptionalLong.empty());
    Document read = docs.get("blog", id);

    // A whole-document edit over the version read marks the fields it changes, no other.
    Map<String, Object> edit = new LinkedHashMap<>(read.fields());
    edit.put("author", "Fixed author");
    edit.remove("tags");
    Document edited = docs.put("blog", id, edit, OptionalLong.of(read.version()), null).document();
    assertThat(edited.corrected()).containsOnlyKeys("author", "tags");
    assertThat(edited.corrected().get("author").by()).isEqualTo("person");

    // A PUT and a PATCH without If-Match are a crawler's: corrected fields stay.
    Map<String, Object> recrawl = crawl(id, "Crawled by PUT", "b");
    Document put = docs.put("blog", id, recrawl, OptionalLong.empty()).document();
    assertThat(put.fields())
        .containsEntry("title", "Crawled by PUT")
        .containsEntry("author", "Fixed author")
        .doesNotContainKey("tags");
    Document patched =
        docs.patch(
            "blog",
            id,
            Map.of("author", "Machine author", "content", "patched"),
            OptionalLong.empty());
    assertThat(patched.fields())
        .containsEntry("author", "Fixed author")
        .containsEntry("content", "patched");
    assertThat(docs.get("blog", id)).isEqualTo(patched);
    assertThat(history(id))
        .extracting(HistoryEntry::side)
        .containsExactly("crawl", "crawl", "person");

    // A counter changed by hand is in the history but not marked: views keep counting.
    Document views =
        docs.patch("blog", id, Map.of("views", 5), OptionalLong.of(patched.version()), "cy");
    assertThat(views.corrected()).containsOnlyKeys("author", "tags");
    assertThat(byField(history(id).get(0))).containsOnlyKeys("views");

    // An editor names the person of an edit over a version read: without If-Match it is refused.
    assertThatThrownBy(
            () -> docs.patch("blog", id, Map.of("title", "x"), OptionalLong.empty(), "ann"))
        .isInstanceOf(InvalidInputException.class)
        .extracting(e -> ((InvalidInputException) e).field())
        .isEqualTo("editor");
    assertThatThrownBy(
            () ->
                docs.patch(
                    "blog", id, Map.of("title", "x"), OptionalLong.of(views.version()), " \t"))
        .isInstanceOf(InvalidInputException.class)
        .extracting(e -> ((InvalidInputException) e).field())
        .isEqualTo("editor");
    assertThat(docs.get("blog", id).version()).isEqualTo(views.version());
  }

  @Test
  void longValuesAreCutInTheHistoryAndItKeepsTheNewestEntries() {
    String id = id("p/3");
    index(id, crawl(id, "Short", "a"));
    Document read = docs.get("blog", id);
    String longText = "长".repeat(CorrectionRules.VALUE_CHARS + 50);
    List<String> manyTags = new ArrayList<>();
    for (int i = 0; i < CorrectionRules.LIST_ITEMS + 5; i++) {
      manyTags.add("t" + i);
    }
    Document edited =
        docs.patch(
            "blog",
            id,
            Map.of("content", longText, "tags", manyTags),
            OptionalLong.of(read.version()));
    assertThat(edited.fields()).containsEntry("content", longText);
    Map<String, FieldChange> changes = byField(history(id).get(0));
    assertThat(changes.get("content").cut()).isTrue();
    assertThat((String) changes.get("content").after()).hasSize(CorrectionRules.VALUE_CHARS);
    assertThat(changes.get("tags").cut()).isTrue();
    assertThat((List<?>) changes.get("tags").after()).hasSize(CorrectionRules.LIST_ITEMS);

    // One change past the limit: the oldest entry goes with it; pages follow the cursor.
    long version = edited.version();
    List<Long> versions = new ArrayList<>(List.of(version));
    for (int i = 0; i < CorrectionRules.HISTORY_ENTRIES; i++) {
      version =
          docs.patch("blog", id, Map.of("title", "edit " + i), OptionalLong.of(version)).version();
      versions.add(version);
    }
    List<Long> shown = new ArrayList<>();
    DocumentHistory page = docs.history("blog", id, PageRequest.first(30));
    while (true) {
      page.entries().forEach(e -> shown.add(e.version()));
      if (page.next() == null) {
        break;
      }
      page = docs.history("blog", id, new PageRequest(30, java.util.Optional.of(page.next())));
    }
    List<Long> newestFirst = new ArrayList<>(versions.subList(1, versions.size()));
    Collections.reverse(newestFirst);
    assertThat(shown).as("newest first, the oldest edit gone").isEqualTo(newestFirst);
    assertThatThrownBy(
            () -> docs.history("blog", id, new PageRequest(5, java.util.Optional.of("bad"))))
        .isInstanceOf(InvalidInputException.class);
  }

  /**
   * A bulk writer that checked for corrections just before a person's edit and writes blind just
   * after it, with a version newer or older than the edit's: the correction still shows.
   */
  @Test
  void aBlindWriteThatMissedTheCorrectionCannotHideIt() throws Exception {
    String id = id("p/6");
    index(id, crawl(id, "Crawled", "a"));
    Document read = docs.get("blog", id);
    Document edited =
        docs.patch(
            "blog",
            id,
            Map.of("title", "Fixed", "sentiment", 0.5),
            OptionalLong.of(read.version()));
    Map<String, Object> late = crawl(id, "Crawled late", "b");
    late.put("sentiment", -1.0);
    blindWrite(id, late, edited.version() + 64);
    Map<String, Object> expected = new LinkedHashMap<>(late);
    expected.put("title", "Fixed");
    expected.put("sentiment", 0.5);
    Document shown = docs.get("blog", id);
    assertThat(shown.version()).isEqualTo(edited.version() + 64);
    assertThat(shown.fields()).isEqualTo(expected);
    assertThat(shown.corrected()).containsOnlyKeys("title", "sentiment");

    Map<String, Object> older = crawl(id, "Crawled older", "c");
    blindWrite(id, older, edited.version() + 1);
    assertThat(docs.get("blog", id)).as("older than the stored document").isEqualTo(shown);
  }

  /** What a bulk {@code index} writes for a row it found without corrections. */
  private void blindWrite(String id, Map<String, Object> fields, long version) throws Exception {
    DocType blog = docs.type("blog");
    byte[] row = DocsKeys.DOC.encode(id, "blog");
    Map<String, Object> values = FieldValues.typed(blog, fields, false);
    try (Table t = runtime.connection().getTable(DocsSchema.in("docs").table("blog"))) {
      t.put(DocCodec.wholeDocument(row, DocCodec.cells(blog, values), version));
    }
  }

  /**
   * With {@code docs.recrawl-history=false} a bulk {@code index} stays a blind write for every row:
   * the correction still survives, the crawl is not in the history.
   */
  @Test
  void withoutRecrawlHistoryABlindReCrawlStillKeepsTheCorrection() {
    String id = id("p/7");
    index(id, crawl(id, "Crawled", "a"));
    Document read = docs.get("blog", id);
    docs.patch("blog", id, Map.of("title", "Fixed"), OptionalLong.of(read.version()));
    try (Platform blind = Platform.create(runtime, EmbeddedHBase.dataDir())) {
      DocsService crawler =
          new DocsService(
              blind.contextFor(
                  new DocsSystem().descriptor(), Map.of("docs.recrawl-history", "false")));
      Map<String, Object> again = crawl(id, "Crawled again", "b");
      String lines =
          "{\"index\":{\"_index\":\"blog\",\"_id\":"
              + Json.write(id)
              + "}}\n"
              + Json.write(again)
              + "\n";
      List<BulkItem> items = new ArrayList<>();
      crawler.bulk(
          BulkNdjson.actions(new ByteArrayInputStream(lines.getBytes(StandardCharsets.UTF_8))),
          items::add);
      assertThat(items).extracting(BulkItem::status).containsExactly(200);
      Map<String, Object> expected = new LinkedHashMap<>(again);
      expected.put("title", "Fixed");
      assertThat(docs.get("blog", id).fields()).isEqualTo(expected);
      assertThat(docs.get("blog", id).version()).isEqualTo(items.get(0).version());
      assertThat(history(id)).extracting(HistoryEntry::side).containsExactly("person");
    }
  }

  @Test
  void deletingADocumentDeletesItsCorrectionsAndItsHistory() throws Exception {
    String id = id("p/4");
    index(id, crawl(id, "Crawled", "a"));
    Document read = docs.get("blog", id);
    docs.patch("blog", id, Map.of("title", "Fixed"), OptionalLong.of(read.version()));
    index(id, crawl(id, "Crawled", "b"));
    assertThat(history(id)).hasSize(2);

    docs.delete("blog", id, OptionalLong.empty());
    assertThatThrownBy(() -> history(id)).isInstanceOf(NotFoundException.class);
    byte[] row = DocsKeys.DOC.encode(id, "blog");
    try (Table t = runtime.connection().getTable(DocsSchema.in("docs").table("blog"))) {
      Result history = t.get(new Get(row).addFamily(DocsSchema.H));
      assertThat(history.isEmpty()).as("history cells left: %s", history).isTrue();
      Result marks = t.get(new Get(row).addColumn(DocsSchema.DI, DocsSchema.CORRECTIONS));
      assertThat(marks.isEmpty()).as("corrections cell left").isTrue();
    }

    // Crawled again, it is a new document: the crawl's title, no corrections, no history.
    Map<String, Object> again = crawl(id, "Crawled anew", "c");
    index(id, again);
    Document fresh = docs.get("blog", id);
    assertThat(fresh.fields()).isEqualTo(again);
    assertThat(fresh.corrected()).isEmpty();
    assertThat(history(id)).isEmpty();
  }

  @Test
  void aCorrectedCommentKeepsItsCorrectionThroughABulkReIndex() {
    String parent = id("p/5");
    index(parent, crawl(parent, "Parent", "a"));
    Document comment =
        docs.addComment(
            "blog",
            parent,
            null,
            "c1",
            Map.of("content", "原文", "author", "u1", "created", "2026-09-10T09:00:00Z"));
    docs.patch(
        "comment", comment.id(), Map.of("content", "更正"), OptionalLong.of(comment.version()));
    String lines =
        "{\"index\":{\"_index\":\"comment\",\"_id\":\"c1\",\"parent\":{\"type\":\"blog\",\"id\":"
            + Json.write(parent)
            + "}}}\n"
            + "{\"content\":\"再次抓取\",\"author\":\"u2\",\"created\":\"2026-09-10T09:00:00Z\"}\n";
    List<BulkItem> items = new ArrayList<>();
    docs.bulk(
        BulkNdjson.actions(new ByteArrayInputStream(lines.getBytes(StandardCharsets.UTF_8))),
        items::add);
    assertThat(items).extracting(BulkItem::status).containsExactly(200);
    Document after = docs.get("comment", comment.id());
    assertThat(after.fields()).containsEntry("content", "更正").containsEntry("author", "u2");
    assertThat(docs.history("comment", comment.id(), PageRequest.first(10)).entries())
        .extracting(HistoryEntry::side)
        .containsExactly("crawl", "person");
  }
}
