package org.casebook.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.client.Table;
import org.casebook.core.HBaseRuntime;
import org.casebook.core.Json;
import org.casebook.core.testing.EmbeddedHBase;
import org.casebook.core.testing.TestIds;
import org.casebook.docs.wire.BulkNdjson;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Blind bulk writes ordered by version alone: concurrent writers of the same ids leave each
 * document exactly one writer's whole document at the highest version; a slow write with a lower
 * version changes nothing over a newer edit, a higher one replaces it whole but for the fields a
 * person corrected; counters follow the replaced document; the source-day index follows re-indexed
 * documents.
 */
@ExtendWith(EmbeddedHBase.class)
class DocsBulkIT {
  private static final int WRITERS = 6;
  private static final int ROUNDS = 12;
  private static final int IDS = 25;

  private HBaseRuntime runtime;
  private DocsTestStore store;
  private DocsService docs;
  private String run;

  @BeforeEach
  void setUp(HBaseRuntime runtime) {
    this.runtime = runtime;
    store = new DocsTestStore(runtime);
    docs = store.docs;
    run = TestIds.unique("bk");
  }

  @AfterEach
  void tearDown() {
    store.close();
  }

  private String host(int i) {
    return run + "-" + i + ".example.com";
  }

  private String id(int i) {
    return "https://" + host(0) + "/p/" + i;
  }

  /**
   * What writer {@code w} stores for id {@code i} in round {@code r}, in the form a read returns:
   * even writers and odd writers set different fields, so a mixture of two would show.
   */
  private Map<String, Object> content(int w, int r, int i) {
    Map<String, Object> f = new LinkedHashMap<>();
    f.put("title", "w" + w + " r" + r + " #" + i);
    if (w % 2 == 0) {
      f.put("author", "author " + w + "-" + r);
      f.put("created", "2026-09-0" + (1 + w % 3) + "T12:00:00Z");
      f.put("url", "https://" + host(w % 2 + w / 2 % 2) + "/p/" + i);
      f.put("views", (long) (w * 1000 + r));
      f.put("tags", List.of("w" + w, "r" + r));
    } else {
      f.put("content", "正文 " + w + "-" + r);
      f.put("created", "2026-09-0" + (1 + w % 3) + "T13:00:00Z");
      f.put("url", "https://" + host(1) + "/p/" + i);
      f.put("sentiment", w + r / 100.0);
      f.put("corrections", "by " + w);
    }
    return f;
  }

  private static String bulkLines(String type, String id, Map<String, Object> fields) {
    return "{\"index\":{\"_index\":\""
        + type
        + "\",\"_id\":"
        + Json.write(id)
        + "}}\n"
        + Json.write(fields)
        + "\n";
  }

  private List<BulkItem> bulk(String lines) {
    List<BulkItem> items = new ArrayList<>();
    docs.bulk(
        BulkNdjson.actions(new ByteArrayInputStream(lines.getBytes(StandardCharsets.UTF_8))),
        items::add);
    return items;
  }

  /** The version each writer's whole document got, per id and version. */
  @Test
  void concurrentBulkWritersOfTheSameIdsLeaveExactlyOneWholeDocumentEach() throws Exception {
    Map<String, Map<Long, Map<String, Object>>> stored = new ConcurrentHashMap<>();
    for (int i = 0; i < IDS; i++) {
      stored.put(id(i), new ConcurrentHashMap<>());
    }
    CountDownLatch go = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(WRITERS);
    List<Future<?>> futures = new ArrayList<>();
    for (int w = 0; w < WRITERS; w++) {
      int writer = w;
      futures.add(
          pool.submit(
              () -> {
                go.await();
                for (int r = 0; r < ROUNDS; r++) {
                  StringBuilder lines = new StringBuilder();
                  List<Integer> order = new ArrayList<>();
                  for (int i = 0; i < IDS; i++) {
                    order.add(i);
                  }
                  Collections.rotate(order, writer * 7 + r); // writers meet on different ids
                  for (int i : order) {
                    lines.append(bulkLines("blog", id(i), content(writer, r, i)));
                  }
                  List<BulkItem> items = bulk(lines.toString());
                  for (int k = 0; k < items.size(); k++) {
                    BulkItem item = items.get(k);
                    assertThat(item.status()).as(item.error()).isEqualTo(200);
                    Map<String, Object> previous =
                        stored.get(item.id()).put(item.version(), content(writer, r, order.get(k)));
                    assertThat(previous).as("versions of one id never repeat").isNull();
                  }
                }
                return null;
              }));
    }
    go.countDown();
    for (Future<?> f : futures) {
      f.get(5, TimeUnit.MINUTES);
    }
    pool.shutdown();

    for (int i = 0; i < IDS; i++) {
      Map<Long, Map<String, Object>> byVersion = stored.get(id(i));
      assertThat(byVersion).hasSize(WRITERS * ROUNDS);
      long newest = Collections.max(byVersion.keySet());
      Document d = docs.get("blog", id(i));
      assertThat(d.version()).as("the highest version wins").isEqualTo(newest);
      assertThat(d.fields()).as("exactly its writer's document").isEqualTo(byVersion.get(newest));
    }

    // Every document is listed under its final source and day only (older entries repaired away).
    for (int i = 0; i < IDS; i++) {
      Document d = docs.get("blog", id(i));
      String host = java.net.URI.create((String) d.fields().get("url")).getHost();
      String day = ((String) d.fields().get("created")).substring(0, 10);
      for (int h = 0; h < 2; h++) {
        for (String dd : List.of("2026-09-01", "2026-09-02", "2026-09-03")) {
          boolean expected = host(h).equals(host) && dd.equals(day);
          assertThat(list(host(h), dd).contains(id(i)))
              .as("%s under %s %s", id(i), host(h), dd)
              .isEqualTo(expected);
        }
      }
    }
    assertThat(docs.repairIndex("blog").missingAdded()).isZero();
    IndexRepair again = docs.repairIndex("blog");
    assertThat(again.staleRemoved()).isZero();
    assertThat(again.missingAdded()).isZero();
  }

  private List<String> list(String host, String day) {
    return store.listAll("blog", host, day, 100);
  }

  /** A bulk index as it would arrive late at the region server, stamped with {@code version}. */
  private void slowBlindWrite(String id, Map<String, Object> fields, long version)
      throws Exception {
    DocType blog = docs.type("blog");
    Target t =
        new Target(
            blog, id, DocsKeys.DOC.encode(id, "blog"), null, DocsSchema.in("docs").table("blog"));
    Map<String, Object> values = FieldValues.typed(blog, fields, false);
    try (Table table = runtime.connection().getTable(t.table())) {
      table.put(DocCodec.wholeDocument(t.row(), DocCodec.cells(blog, values), version));
    }
  }

  /**
   * A blind write takes its place in a document's history by its version, not by when it arrives:
   * older than the last whole write, it never shows; between that and an edit, it is the document
   * the edit applies to; newer than everything, it is the document.
   */
  @Test
  void aSlowBlindWriteTakesItsPlaceInTheHistoryByItsVersion() throws Exception {
    String id = id(100);
    long v1 = bulk(bulkLines("blog", id, content(0, 0, 100))).get(0).version();
    Map<String, Object> patch = new LinkedHashMap<>();
    patch.put("title", "edited");
    patch.put("author", null);
    Document edited = docs.patch("blog", id, patch, OptionalLong.of(v1));
    assertThat(edited.fields()).doesNotContainKey("author").containsEntry("title", "edited");

    slowBlindWrite(id, content(2, 9, 100), v1 - 1);
    assertThat(docs.get("blog", id)).as("older than the stored document").isEqualTo(edited);

    // Between the stored document and the edit: the edit wrote the BI cell (the BI fields of the
    // state it edited, with its change), which stays over the slower write's BI cell; the slower
    // write's DI cell and counters are newer than the first document's, so they show.
    Map<String, Object> first = content(0, 0, 100);
    Map<String, Object> between = content(2, 1, 100);
    slowBlindWrite(id, between, edited.version() - 1);
    Map<String, Object> expected = new LinkedHashMap<>();
    expected.put("title", "edited");
    expected.put("created", first.get("created"));
    expected.put("url", first.get("url"));
    expected.put("views", between.get("views"));
    expected.put("tags", between.get("tags"));
    assertThat(between.get("url")).isNotEqualTo(first.get("url"));
    assertThat(between.get("views")).isNotEqualTo(first.get("views"));
    Document now = docs.get("blog", id);
    assertThat(now.version()).as("the edit is still the newest").isEqualTo(edited.version());
    assertThat(now.fields())
        .as("the edit's BI over the slower write's, the slower write's DI, nothing older")
        .isEqualTo(expected);

    // A PUT removes every field it does not name, also against a slower write; counters aside.
    Document put =
        docs.put("blog", id, Map.of("title", "replaced by hand"), OptionalLong.of(now.version()))
            .document();
    Map<String, Object> beforePut = content(4, 1, 100);
    slowBlindWrite(id, beforePut, put.version() - 1);
    assertThat(docs.get("blog", id).fields())
        .isEqualTo(Map.of("title", "replaced by hand", "views", beforePut.get("views")));

    // Newer than everything: the document, whole, but for the fields the edits by hand (over
    // the version read) changed: those stay as the person left them, set or removed.
    assertThat(put.corrected()).containsOnlyKeys("title", "author", "created", "url", "tags");
    Map<String, Object> newer = content(1, 2, 100);
    slowBlindWrite(id, newer, put.version() + 64);
    Document replaced = docs.get("blog", id);
    assertThat(replaced.version()).isEqualTo(put.version() + 64);
    Map<String, Object> merged = new LinkedHashMap<>(newer);
    merged.put("title", "replaced by hand");
    merged.remove("created");
    merged.remove("url");
    assertThat(replaced.fields()).isEqualTo(merged);
    assertThat(replaced.corrected()).isEqualTo(put.corrected());
  }

  @Test
  void countersFollowTheDocumentAnIndexStores() {
    String id = id(200);
    Map<String, Object> withViews = content(0, 0, 200);
    bulk(bulkLines("blog", id, withViews));
    long base = (Long) withViews.get("views");
    assertThat(docs.increment("blog", id, "views", 1)).isEqualTo(base + 1);

    // An index replaces the whole document: a new document without views counts from zero.
    Map<String, Object> withoutViews = content(1, 0, 200);
    bulk(bulkLines("blog", id, withoutViews));
    assertThat(docs.get("blog", id).fields()).doesNotContainKey("views");
    assertThat(docs.increment("blog", id, "views", 2)).isEqualTo(2);
    assertThat(docs.increment("blog", id, "views", 3)).isEqualTo(5);
    assertThat(docs.get("blog", id).fields()).containsEntry("views", 5L);

    // A human write-back keeps the count; a PATCH naming views sets it; null removes it.
    Document d = docs.get("blog", id);
    Map<String, Object> back = new LinkedHashMap<>(d.fields());
    back.put("views", 0);
    back.put("title", "corrected");
    Document put = docs.put("blog", id, back, OptionalLong.of(d.version())).document();
    assertThat(put.fields()).containsEntry("views", 5L).containsEntry("title", "corrected");
    assertThat(docs.increment("blog", id, "views", 1)).isEqualTo(6);
    docs.patch("blog", id, Map.of("views", 40), OptionalLong.empty());
    assertThat(docs.increment("blog", id, "views", 2)).isEqualTo(42);
    docs.patch("blog", id, Collections.singletonMap("views", null), OptionalLong.empty());
    assertThat(docs.get("blog", id).fields()).doesNotContainKey("views");
    assertThat(docs.increment("blog", id, "views", 1)).isEqualTo(1);
    assertThat(docs.get("blog", id).fields()).containsEntry("views", 1L);
  }

  @Test
  void reIndexedDocumentsMoveInTheListingAndFailedCreatesLeaveNoEntry() {
    String id = id(300);
    Map<String, Object> a = content(0, 0, 300); // host 0, 2026-09-01
    bulk(bulkLines("blog", id, a));
    assertThat(list(host(0), "2026-09-01")).containsExactly(id);
    Map<String, Object> b = content(1, 0, 300); // host 1, 2026-09-02
    docs.repairIndex("blog"); // what other tests of this class left, so the count below is ours
    bulk(bulkLines("blog", id, b));
    IndexRepair repair = docs.repairIndex("blog");
    assertThat(repair.staleRemoved()).as("the replaced state's entry").isEqualTo(1);
    assertThat(repair.missingAdded()).isZero();
    assertThat(list(host(1), "2026-09-02")).containsExactly(id);
    bulk(bulkLines("blog", id, a));
    assertThat(list(host(1), "2026-09-02")).as("read-repaired by the listing").isEmpty();
    assertThat(list(host(0), "2026-09-01")).containsExactly(id);

    // A create of an existing document fails and takes back the entry it wrote first.
    String create =
        "{\"create\":{\"_index\":\"blog\",\"_id\":" + Json.write(id) + "}}\n" + Json.write(b);
    assertThat(bulk(create)).extracting(BulkItem::status).containsExactly(409);
    assertThat(list(host(1), "2026-09-02")).isEmpty();
    docs.repairIndex("blog");
    IndexRepair again = docs.repairIndex("blog");
    assertThat(again.staleRemoved()).isZero();
    assertThat(again.missingAdded()).isZero();

    // Deleted, it can be created again; the version follows the deleted one's.
    long before = docs.get("blog", id).version();
    docs.delete("blog", id, OptionalLong.empty());
    List<BulkItem> recreated = bulk(create);
    assertThat(recreated).extracting(BulkItem::status).containsExactly(201);
    assertThat(recreated.get(0).version()).isGreaterThan(before);
    assertThat(docs.get("blog", id).fields()).isEqualTo(b);
    assertThat(list(host(1), "2026-09-02")).containsExactly(id);
  }
}
