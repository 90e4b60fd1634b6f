package org.casebook.docs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.casebook.core.ConflictException;
import org.casebook.core.HBaseRuntime;
import org.casebook.core.InvalidInputException;
import org.casebook.core.NotFoundException;
import org.casebook.core.PreconditionFailedException;
import org.casebook.core.page.Page;
import org.casebook.core.page.PageRequest;
import org.casebook.core.testing.EmbeddedHBase;
import org.casebook.core.testing.TestIds;
import org.casebook.docs.wire.BulkNdjson;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(EmbeddedHBase.class)
class DocsServiceIT {
  private HBaseRuntime runtime;
  private DocsTestStore store;
  private DocsService docs;
  private String run;

  @BeforeEach
  void setUp(HBaseRuntime runtime) {
    this.runtime = runtime;
    store = new DocsTestStore(runtime);
    docs = store.docs;
    run = TestIds.unique("r");
  }

  @AfterEach
  void tearDown() {
    store.close();
  }

  /** A document's fields as a caller builds them: a map that may hold nulls and is changed. */
  static Map<String, Object> json(Map<String, Object> fields) {
    return new LinkedHashMap<>(fields);
  }

  private String url(String host, String path) {
    return "https://" + host + "/" + run + "/" + path;
  }

  private Map<String, Object> blog(String host, String title, String created) {
    return json(
        Map.of(
            "title",
            title,
            "content",
            "正文 content of " + title,
            "author",
            "小明",
            "created",
            created,
            "url",
            url(host, title),
            "views",
            10,
            "tags",
            List.of("hbase", "观点")));
  }

  @Test
  void defaultTypesAreStoredAndTypesCanGrowButNotChange() {
    assertThat(docs.types()).extracting(DocType::name).contains("bbs", "blog", "news", "comment");
    assertThat(docs.type("comment").parents()).containsExactly("blog", "bbs");
    String name = "t_" + run.replace('-', '_');
    DocType t =
        new DocType(name, List.of(FieldDef.of("title", FieldKind.TEXT, Family.BI)), List.of());
    docs.putType(t);
    docs.putType(
        new DocType(
            name,
            List.of(
                FieldDef.of("title", FieldKind.TEXT, Family.BI),
                FieldDef.of("score", FieldKind.DOUBLE, Family.DI)),
            List.of()));
    assertThat(docs.type(name).fields()).hasSize(2);
    WriteResult w =
        docs.put(name, "x", json(Map.of("title", "t", "score", 1.5)), OptionalLong.empty());
    assertThat(w.created()).isTrue();
    assertThat(docs.get(name, "x").fields()).containsEntry("score", 1.5);
    assertThatThrownBy(
            () ->
                docs.putType(
                    new DocType(
                        name,
                        List.of(FieldDef.of("title", FieldKind.KEYWORD, Family.BI)),
                        List.of())))
        .isInstanceOf(ConflictException.class);
    assertThatThrownBy(() -> docs.get("nosuchtype", "x"))
        .isInstanceOf(InvalidInputException.class)
        .extracting(e -> ((InvalidInputException) e).field())
        .isEqualTo("type");
  }

  @Test
  void readsAssembleBothFamiliesAndWritesCarryVersions() {
    String id = url("Blog.Example.com:443", "p1");
    WriteResult first =
        docs.put(
            "blog",
            id,
            blog("blog.example.com", "p1", "2026-09-01T08:00:00Z"),
            OptionalLong.empty());
    assertThat(first.created()).isTrue();
    Document d = first.document();
    assertThat(d.id()).as("canonical URL id").isEqualTo(url("blog.example.com", "p1"));
    assertThat(d.version()).isPositive();
    assertThat(d.fields())
        .containsEntry("title", "p1")
        .containsEntry("views", 10L)
        .containsEntry("created", "2026-09-01T08:00:00Z")
        .containsEntry("tags", List.of("hbase", "观点"));
    assertThat(docs.get("blog", "https://BLOG.example.com/" + run + "/p1")).isEqualTo(d);

    // A replace keeps counters (views) and removes fields it does not name.
    docs.increment("blog", d.id(), "views", 5);
    Map<String, Object> replacement = blog("blog.example.com", "p1", "2026-09-01T08:00:00Z");
    replacement.remove("tags");
    replacement.put("views", 0);
    Document replaced =
        docs.put("blog", d.id(), replacement, OptionalLong.of(d.version())).document();
    assertThat(replaced.version()).isGreaterThan(d.version());
    assertThat(replaced.fields()).doesNotContainKey("tags").containsEntry("views", 15L);
    assertThat(docs.get("blog", d.id())).isEqualTo(replaced);

    // A stale write-back is refused, not applied.
    assertThatThrownBy(
            () ->
                docs.patch(
                    "blog", d.id(), json(Map.of("title", "old")), OptionalLong.of(d.version())))
        .isInstanceOf(PreconditionFailedException.class);
    assertThat(docs.get("blog", d.id()).fields()).containsEntry("title", "p1");
    assertThatThrownBy(() -> docs.delete("blog", d.id(), OptionalLong.of(d.version())))
        .isInstanceOf(PreconditionFailedException.class);

    // Counters need no version and do not change it.
    assertThat(docs.increment("blog", d.id(), "views", 1)).isEqualTo(16);
    assertThat(docs.get("blog", d.id()).version()).isEqualTo(replaced.version());
    assertThatThrownBy(() -> docs.increment("blog", d.id(), "title", 1))
        .isInstanceOf(InvalidInputException.class);
    assertThatThrownBy(() -> docs.increment("blog", url("x.com", "none"), "views", 1))
        .isInstanceOf(NotFoundException.class);

    // A PATCH with null removes a field.
    Document patched =
        docs.patch(
            "blog",
            d.id(),
            json(java.util.Collections.singletonMap("corrections", null)),
            OptionalLong.empty());
    assertThat(patched.fields()).doesNotContainKey("corrections");
    assertThatThrownBy(
            () ->
                docs.patch(
                    "blog", url("x.com", "none"), json(Map.of("title", "x")), OptionalLong.empty()))
        .isInstanceOf(NotFoundException.class);
  }

  @Test
  void aDiOnlyPatchNeverRewritesBi() throws Exception {
    Document d =
        docs.put(
                "blog",
                url("a.com", "di"),
                blog("a.com", "di", "2026-09-01T08:00:00Z"),
                OptionalLong.empty())
            .document();
    Map<String, Long> before = biTimestamps(d.id());
    Thread.sleep(5);
    Document patched =
        docs.patch(
            "blog",
            d.id(),
            json(Map.of("sentiment", 0.8, "corrections", "作者更正")),
            OptionalLong.of(d.version()));
    assertThat(patched.version()).isGreaterThan(d.version());
    assertThat(patched.fields()).containsEntry("sentiment", 0.8).containsEntry("title", "di");
    assertThat(biTimestamps(d.id())).isEqualTo(before);
  }

  private Map<String, Long> biTimestamps(String id) throws Exception {
    try (Table t = runtime.connection().getTable(DocsSchema.in("docs").table("blog"))) {
      Result r = t.get(new Get(DocsKeys.DOC.encode(id, "blog")).addFamily(DocsSchema.BI));
      Map<String, Long> out = new java.util.TreeMap<>();
      r.listCells()
          .forEach(
              c ->
                  out.put(
                      new String(
                          org.apache.hadoop.hbase.CellUtil.cloneQualifier(c),
                          java.nio.charset.StandardCharsets.UTF_8),
                      c.getTimestamp()));
      assertThat(out).isNotEmpty();
      return out;
    }
  }

  @Test
  void commentsListNewestOrOldestFirstInPagesAndGoWithTheirParent() {
    Document parentDoc =
        docs.put(
                "blog",
                url("c.com", "post"),
                blog("c.com", "post", "2026-09-01T08:00:00Z"),
                OptionalLong.empty())
            .document();
    String parent = parentDoc.id();
    List<String> ids = new ArrayList<>();
    List<Long> versions = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      Document c =
          docs.addComment(
              "blog",
              parent,
              null,
              "c" + i,
              json(
                  Map.of(
                      "content",
                      "评论 " + i,
                      "author",
                      "u" + i,
                      "created",
                      1_789_000_000_000L + i * 1000L)));
      assertThat(c.parent()).isEqualTo(new DocRef("blog", parent));
      ids.add(c.id());
      versions.add(c.version());
    }
    assertThat(docs.get("comment", ids.get(2)).fields()).containsEntry("content", "评论 2");
    List<String> newest = new ArrayList<>();
    Optional<String> cursor = Optional.empty();
    do {
      Page<Document> p =
          docs.comments("blog", parent, null, CommentOrder.NEWEST, new PageRequest(2, cursor));
      p.items().forEach(d -> newest.add(d.id()));
      cursor = p.next();
    } while (cursor.isPresent());
    assertThat(newest).containsExactly(ids.get(4), ids.get(3), ids.get(2), ids.get(1), ids.get(0));
    Page<Document> oldest =
        docs.comments("blog", parent, null, CommentOrder.OLDEST, PageRequest.first(3));
    assertThat(oldest.items())
        .extracting(Document::id)
        .containsExactly(ids.get(0), ids.get(1), ids.get(2));
    Page<Document> rest =
        docs.comments("blog", parent, null, CommentOrder.OLDEST, new PageRequest(3, oldest.next()));
    assertThat(rest.items()).extracting(Document::id).containsExactly(ids.get(3), ids.get(4));
    assertThat(rest.next()).isEmpty();

    // A comment is edited like any document; deleting it takes it out of the listing.
    docs.patch(
        "comment", ids.get(1), json(Map.of("sentiment", -0.5)), OptionalLong.of(versions.get(1)));
    docs.delete("comment", ids.get(0), OptionalLong.empty());
    assertThat(
            docs.comments("blog", parent, null, CommentOrder.OLDEST, PageRequest.first(10)).items())
        .extracting(Document::id)
        .containsExactly(ids.get(1), ids.get(2), ids.get(3), ids.get(4));
    assertThatThrownBy(
            () ->
                docs.addComment(
                    "news", url("n.com", "x"), null, null, json(Map.of("content", "x"))))
        .isInstanceOf(InvalidInputException.class);
    assertThatThrownBy(
            () ->
                docs.addComment(
                    "blog", url("c.com", "missing"), null, null, json(Map.of("content", "x"))))
        .isInstanceOf(NotFoundException.class);

    // Deleting the blog deletes its comments; stored again, it continues its versions.
    docs.delete("blog", parent, OptionalLong.empty());
    assertThatThrownBy(() -> docs.get("comment", ids.get(3))).isInstanceOf(NotFoundException.class);
    assertThatThrownBy(
            () -> docs.comments("blog", parent, null, CommentOrder.NEWEST, PageRequest.first(10)))
        .isInstanceOf(NotFoundException.class);
    Document again =
        docs.put(
                "blog", parent, blog("c.com", "post", "2026-09-01T08:00:00Z"), OptionalLong.empty())
            .document();
    assertThat(again.version()).isGreaterThan(parentDoc.version());
    assertThat(
            docs.comments("blog", parent, null, CommentOrder.NEWEST, PageRequest.first(10)).items())
        .isEmpty();
  }

  @Test
  void theSourceDayListingFollowsInsertsUpdatesAndDeletes() {
    String host = run + ".example.org";
    String other = run + ".example.net";
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      ids.add(
          docs.put(
                  "news",
                  url(host, "n" + i),
                  json(
                      Map.of(
                          "title",
                          "n" + i,
                          "url",
                          url(host, "n" + i),
                          "created",
                          "2026-09-02T0" + i + ":00:00Z")),
                  OptionalLong.empty())
              .document()
              .id());
    }
    assertThat(listAll("news", host, "2026-09-02")).containsExactlyElementsOf(ids);
    assertThat(listAll("news", host, "2026-09-03")).isEmpty();

    // Moving a document to another day and site moves its entry.
    docs.patch(
        "news", ids.get(1), json(Map.of("created", "2026-09-03T10:00:00Z")), OptionalLong.empty());
    docs.patch("news", ids.get(2), json(Map.of("url", url(other, "moved"))), OptionalLong.empty());
    assertThat(listAll("news", host, "2026-09-02"))
        .containsExactly(ids.get(0), ids.get(3), ids.get(4));
    assertThat(listAll("news", host, "2026-09-03")).containsExactly(ids.get(1));
    assertThat(listAll("news", other, "2026-09-02")).containsExactly(ids.get(2));

    // Deleting removes the entry; an entry a crashed writer left behind is skipped and removed.
    docs.delete("news", ids.get(3), OptionalLong.empty());
    IndexStore index = new IndexStore(runtime.connection(), DocsSchema.in("docs"));
    byte[] stale =
        DocsKeys.SOURCE_DAY.encode(
            host,
            "news",
            (int) java.time.LocalDate.parse("2026-09-02").toEpochDay(),
            1L,
            ids.get(4));
    index.put(stale, 1);
    assertThat(listAll("news", host, "2026-09-02")).containsExactly(ids.get(0), ids.get(4));
    IndexRepair repair = docs.repairIndex("news");
    assertThat(repair.missingAdded()).isZero();
    assertThat(repair.staleRemoved()).isZero();
    assertThatThrownBy(() -> docs.bySource("comment", host, "2026-09-02", PageRequest.first(1)))
        .isInstanceOf(InvalidInputException.class);
    assertThatThrownBy(() -> docs.bySource("news", host, "2026-13-02", PageRequest.first(1)))
        .isInstanceOf(InvalidInputException.class)
        .extracting(e -> ((InvalidInputException) e).field())
        .isEqualTo("day");
  }

  /** Two a page, so that every listing here also follows its cursor. */
  private List<String> listAll(String type, String source, String day) {
    return store.listAll(type, source, day, 2);
  }

  @Test
  void bulkStoresGoodDocumentsAndReportsBadOnesPerDocument() {
    String host = run + ".bulk.cn";
    String existing =
        docs.put("bbs", url(host, "old"), json(Map.of("title", "old")), OptionalLong.empty())
            .document()
            .id();
    String lines =
        String.join(
            "\n",
            "{\"index\":{\"_index\":\"bbs\",\"_id\":\"" + url(host, "a") + "\"}}",
            "{\"title\":\"帖子 A\",\"url\":\""
                + url(host, "a")
                + "\",\"created\":\"2026-09-05T01:00:00Z\"}",
            "{\"index\":{\"_index\":\"bbs\",\"_id\":\"" + url(host, "b") + "\"}}",
            "{\"title\":\"B\",\"colour\":\"red\"}",
            "{\"create\":{\"_index\":\"bbs\",\"_id\":\"" + existing + "\"}}",
            "{\"title\":\"again\"}",
            "{\"index\":{\"_index\":\"comment\",\"_id\":\"k1\",\"parent\":{\"type\":\"bbs\",\"id\":\""
                + url(host, "a")
                + "\"}}}",
            "{\"content\":\"沙发\",\"created\":1789000000000}",
            "{\"index\":{\"_index\":\"nosuch\"}}",
            "{\"title\":\"x\"}",
            "{\"index\":{\"_index\":\"bbs\"}}",
            "{\"title\":\"generated id\",\"views\":\"many\"}",
            "{\"delete\":{\"_index\":\"bbs\",\"_id\":\"" + existing + "\"}}",
            "{\"index\":{\"_index\":\"news\"}}",
            "{\"title\":\"generated\"}");
    List<BulkItem> items = new ArrayList<>();
    BulkSummary s =
        docs.bulk(
            BulkNdjson.actions(new ByteArrayInputStream(lines.getBytes(StandardCharsets.UTF_8))),
            items::add);
    assertThat(items)
        .extracting(BulkItem::status)
        .containsExactly(200, 400, 409, 200, 400, 400, 200, 201);
    assertThat(items.get(1).field()).isEqualTo("colour");
    assertThat(items.get(4).field()).isEqualTo("_index");
    assertThat(items.get(5).field()).isEqualTo("views");
    assertThat(items).extracting(BulkItem::line).containsExactly(1, 3, 5, 7, 9, 11, 13, 14);
    assertThat(s.actions()).isEqualTo(8);
    assertThat(s.failed()).isEqualTo(4);
    assertThat(docs.get("bbs", url(host, "a")).fields()).containsEntry("title", "帖子 A");
    assertThat(docs.get("news", items.get(7).id()).fields()).containsEntry("title", "generated");
    assertThatThrownBy(() -> docs.get("bbs", existing)).isInstanceOf(NotFoundException.class);
    assertThat(
            docs.comments("bbs", url(host, "a"), null, CommentOrder.OLDEST, PageRequest.first(5))
                .items())
        .extracting(Document::id)
        .containsExactly("k1:1789000000000:bbs:" + url(host, "a"));
    assertThat(listAll("bbs", host, "2026-09-05")).containsExactly(url(host, "a"));
  }

  @Test
  void bulkReportsALineThatIsNotUtf8AndStoresTheRest() throws java.io.IOException {
    String host = run + ".bytes.cn";
    java.io.ByteArrayOutputStream body = new java.io.ByteArrayOutputStream();
    body.write(
        ("{\"index\":{\"_index\":\"bbs\",\"_id\":\"" + url(host, "bad") + "\"}}\r\n")
            .getBytes(StandardCharsets.UTF_8));
    body.write("{\"title\":\"".getBytes(StandardCharsets.UTF_8));
    body.write(new byte[] {(byte) 0xC3, '('}); // a lead byte without its continuation
    body.write("\"}\n\n".getBytes(StandardCharsets.UTF_8));
    body.write(
        ("{\"index\":{\"_index\":\"bbs\",\"_id\":\""
                + url(host, "good")
                + "\"}}\n{\"title\":\"好\"}")
            .getBytes(StandardCharsets.UTF_8));
    List<BulkItem> items = new ArrayList<>();
    docs.bulk(BulkNdjson.actions(new ByteArrayInputStream(body.toByteArray())), items::add);
    assertThat(items).extracting(BulkItem::status).containsExactly(400, 200);
    assertThat(items.get(0).field()).isEqualTo("body");
    assertThat(items.get(0).error()).contains("UTF-8");
    assertThat(items).extracting(BulkItem::line).containsExactly(1, 4);
    assertThatThrownBy(() -> docs.get("bbs", url(host, "bad")))
        .isInstanceOf(NotFoundException.class);
    assertThat(docs.get("bbs", url(host, "good")).fields()).containsEntry("title", "好");
  }
}
