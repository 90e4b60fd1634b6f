package org.casebook.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.casebook.core.HBaseRuntime;
import org.casebook.core.Json;
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
 * People correcting pages over the version read while crawlers re-crawl the same pages with bulk
 * {@code index}, all at once: every document ends with the newest accepted correction (both its
 * fields, one in each family), every other field from one single crawl, and a history holding every
 * accepted edit and only crawls that were stored.
 */
@ExtendWith(EmbeddedHBase.class)
class DocsCorrectionsConcurrencyIT {
  private static final int PERSONS = 4;
  private static final int CRAWLERS = 4;
  private static final int DOCS = 4;
  private static final int EDITS_PER_PERSON = 12;
  private static final int ROUNDS_PER_CRAWLER = 10;

  private DocsTestStore store;
  private DocsService docs;
  private String run;

  /** An edit a person got stored: its version, title and sentiment. */
  private record Accepted(long version, String title, double sentiment) {}

  @BeforeEach
  void setUp(HBaseRuntime runtime) {
    store = new DocsTestStore(runtime);
    docs = store.docs;
    run = TestIds.unique("race");
  }

  @AfterEach
  void tearDown() {
    store.close();
  }

  private String id(int i) {
    return "https://" + run + ".example.com/p/" + i;
  }

  /** Crawl {@code mark}'s page {@code id}: every field says which crawl wrote it. */
  private static Map<String, Object> crawl(String id, String mark, long views) {
    Map<String, Object> f = new LinkedHashMap<>();
    f.put("title", "title " + mark);
    f.put("content", "content " + mark);
    f.put("author", "author " + mark);
    f.put("created", "2026-09-10T08:00:00Z");
    f.put("url", id);
    f.put("views", views);
    f.put("sentiment", views / 1000.0);
    f.put("tags", List.of(mark));
    return f;
  }

  private List<BulkItem> bulk(String lines) {
    List<BulkItem> items = new ArrayList<>();
    docs.bulk(
        BulkNdjson.actions(new ByteArrayInputStream(lines.getBytes(StandardCharsets.UTF_8))),
        items::add);
    return items;
  }

  private static String indexLines(String id, Map<String, Object> fields) {
    return "{\"index\":{\"_index\":\"blog\",\"_id\":"
        + Json.write(id)
        + "}}\n"
        + Json.write(fields)
        + "\n";
  }

  @Test
  void editsAndReCrawlsRacingLoseNoCorrectionAndHalfApplyNothing() throws Exception {
    List<String> ids = new ArrayList<>();
    StringBuilder seed = new StringBuilder();
    for (int i = 0; i < DOCS; i++) {
      ids.add(id(i));
      seed.append(indexLines(id(i), crawl(id(i), "seed", 1)));
    }
    assertThat(bulk(seed.toString())).allMatch(BulkItem::ok);

    Map<String, List<Accepted>> accepted = new ConcurrentHashMap<>();
    Map<String, Set<Long>> crawlVersions = new ConcurrentHashMap<>();
    ids.forEach(
        id -> {
          accepted.put(id, Collections.synchronizedList(new ArrayList<>()));
          crawlVersions.put(id, ConcurrentHashMap.newKeySet());
        });
    AtomicLong conflicts = new AtomicLong();
    AtomicLong mergedCrawls = new AtomicLong();
    CountDownLatch go = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(PERSONS + CRAWLERS);
    List<Future<?>> futures = new ArrayList<>();
    for (int p = 0; p < PERSONS; p++) {
      int person = p;
      futures.add(
          pool.submit(
              () -> {
                go.await();
                for (int i = 0; i < EDITS_PER_PERSON; i++) {
                  String id = ids.get((person + i) % DOCS);
                  String title = "fixed by p" + person + " #" + i;
                  double sentiment = person * 100 + i;
                  while (true) {
                    Document read = docs.get("blog", id);
                    try {
                      Document d =
                          docs.patch(
                              "blog",
                              id,
                              Map.of("title", title, "sentiment", sentiment),
                              OptionalLong.of(read.version()),
                              "p" + person);
                      accepted.get(id).add(new Accepted(d.version(), title, sentiment));
                      break;
                    } catch (PreconditionFailedException lost) {
                      conflicts.incrementAndGet(); // a crawl or another person wrote first
                    }
                  }
                }
                return null;
              }));
    }
    for (int c = 0; c < CRAWLERS; c++) {
      int crawler = c;
      futures.add(
          pool.submit(
              () -> {
                go.await();
                for (int r = 0; r < ROUNDS_PER_CRAWLER; r++) {
                  List<String> order = new ArrayList<>(ids);
                  Collections.rotate(order, crawler + r);
                  StringBuilder lines = new StringBuilder();
                  String mark = "c" + crawler + "-r" + r;
                  for (String id : order) {
                    lines.append(indexLines(id, crawl(id, mark, 1000L * (crawler + 1) + r)));
                  }
                  for (BulkItem item : bulk(lines.toString())) {
                    assertThat(item.status()).as(item.error()).isEqualTo(200);
                    crawlVersions.get(item.id()).add(item.version());
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

    for (String id : ids) {
      Document d = docs.get("blog", id);
      List<Accepted> edits = new ArrayList<>(accepted.get(id));
      assertThat(edits).hasSize(PERSONS * EDITS_PER_PERSON / DOCS);
      Accepted newest =
          edits.stream().max((a, b) -> Long.compare(a.version(), b.version())).orElseThrow();

      // No correction lost: the newest accepted edit's fields, marked with its version.
      assertThat(d.fields()).as(id).containsEntry("title", newest.title());
      assertThat(d.fields()).as(id).containsEntry("sentiment", newest.sentiment());
      assertThat(d.corrected()).as(id).containsOnlyKeys("title", "sentiment");
      assertThat(d.corrected().get("title").version()).isEqualTo(newest.version());
      assertThat(d.corrected().get("sentiment").version()).isEqualTo(newest.version());

      // Whole: every field no person corrected comes from one single crawl.
      String mark = ((List<?>) d.fields().get("tags")).get(0).toString();
      assertThat(mark).as(id).matches("seed|c\\d-r\\d+");
      assertThat(d.fields())
          .as(id)
          .containsEntry("content", "content " + mark)
          .containsEntry("author", "author " + mark);

      // The history: every accepted edit, and crawls only as they were stored.
      List<HistoryEntry> history = docs.history("blog", id, PageRequest.first(1000)).entries();
      Set<Long> personVersions = new HashSet<>();
      for (HistoryEntry e : history) {
        if (e.side().equals(HistoryEntry.PERSON)) {
          personVersions.add(e.version());
        } else {
          assertThat(crawlVersions.get(id)).as("a crawl the bulk answered").contains(e.version());
          mergedCrawls.incrementAndGet();
        }
      }
      Set<Long> acceptedVersions = new HashSet<>();
      edits.forEach(a -> acceptedVersions.add(a.version()));
      assertThat(personVersions).as(id).isEqualTo(acceptedVersions);
      List<Long> versions = history.stream().map(HistoryEntry::version).toList();
      List<Long> sorted = new ArrayList<>(versions);
      sorted.sort(Collections.reverseOrder());
      assertThat(versions).as("newest first").isEqualTo(sorted);
    }
    assertThat(conflicts.get())
        .as("edits refused because a crawl or a person wrote first")
        .isPositive();
    assertThat(mergedCrawls.get()).as("re-crawls merged with corrections").isPositive();
  }
}
