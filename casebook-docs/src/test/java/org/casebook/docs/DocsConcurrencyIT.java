package org.casebook.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.casebook.core.HBaseRuntime;
import org.casebook.core.PreconditionFailedException;
import org.casebook.core.page.PageRequest;
import org.casebook.core.testing.EmbeddedHBase;
import org.casebook.core.testing.TestIds;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Eight editors correcting the same few pages at once, each writing back over the version it read:
 * every accepted edit survives (no lost update), refused ones are detected as 412s, counters
 * incremented meanwhile add up, and the source-day index matches the final documents exactly.
 */
@ExtendWith(EmbeddedHBase.class)
class DocsConcurrencyIT {
  private static final int THREADS = 8;
  private static final int EDITS_PER_THREAD = 30;
  private static final int DOCS = 3;
  private static final List<String> DAYS = List.of("2026-09-01", "2026-09-02");

  private DocsTestStore store;
  private DocsService docs;
  private String run;

  @BeforeEach
  void setUp(HBaseRuntime runtime) {
    store = new DocsTestStore(runtime);
    docs = store.docs;
    run = TestIds.unique("cc");
  }

  @AfterEach
  void tearDown() {
    store.close();
  }

  private List<String> hosts() {
    return List.of(run + "-a.example.com", run + "-b.example.com");
  }

  @Test
  void concurrentEditsLoseNothingAndKeepTheIndexExact() throws Exception {
    List<String> ids = new ArrayList<>();
    for (int d = 0; d < DOCS; d++) {
      String id = "https://" + hosts().get(0) + "/p/" + d;
      Map<String, Object> body =
          DocsServiceIT.json(
              Map.of(
                  "title",
                  "page " + d,
                  "url",
                  id,
                  "created",
                  DAYS.get(0) + "T12:00:00Z",
                  "views",
                  0,
                  "tags",
                  List.of()));
      ids.add(docs.put("blog", id, body, OptionalLong.empty()).document().id());
    }
    Map<String, Set<String>> accepted = new ConcurrentHashMap<>();
    ids.forEach(id -> accepted.put(id, ConcurrentHashMap.newKeySet()));
    AtomicLong conflicts = new AtomicLong();
    AtomicLong attempts = new AtomicLong();
    AtomicLong increments = new AtomicLong();
    CountDownLatch go = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    List<Future<?>> futures = new ArrayList<>();
    for (int t = 0; t < THREADS; t++) {
      int thread = t;
      futures.add(
          pool.submit(
              () -> {
                go.await();
                ThreadLocalRandom r = ThreadLocalRandom.current();
                for (int i = 0; i < EDITS_PER_THREAD; i++) {
                  // Every thread edits the documents in turn: each document gets the same number
                  // of tags, under the limit of keywords a field holds (at random, one sometimes
                  // went over it).
                  String id = ids.get((thread + i) % DOCS);
                  String token = "t" + thread + "-" + i;
                  while (true) {
                    attempts.incrementAndGet();
                    Document read = docs.get("blog", id);
                    @SuppressWarnings("unchecked") // tags are a list of keywords
                    List<String> tags = new ArrayList<>((List<String>) read.fields().get("tags"));
                    tags.add(token);
                    String host = hosts().get(r.nextInt(2));
                    Map<String, Object> patch =
                        DocsServiceIT.json(
                            Map.of(
                                "tags", tags,
                                "url", "https://" + host + "/p/" + id.hashCode(),
                                "created", DAYS.get(r.nextInt(2)) + "T12:00:00Z"));
                    try {
                      docs.patch("blog", id, patch, OptionalLong.of(read.version()));
                      accepted.get(id).add(token);
                      break;
                    } catch (PreconditionFailedException lost) {
                      conflicts.incrementAndGet(); // detected: read again and redo the edit
                    }
                  }
                  docs.increment("blog", id, "views", 1);
                  increments.incrementAndGet();
                }
                return null;
              }));
    }
    go.countDown();
    for (Future<?> f : futures) {
      f.get(5, TimeUnit.MINUTES);
    }
    pool.shutdown();

    long views = 0;
    long lost = 0;
    for (String id : ids) {
      Document d = docs.get("blog", id);
      @SuppressWarnings("unchecked") // tags are a list of keywords
      Set<String> tags = new HashSet<>((List<String>) d.fields().get("tags"));
      Set<String> missing = new HashSet<>(accepted.get(id));
      missing.removeAll(tags);
      lost += missing.size();
      assertThat(tags).as("only accepted edits are stored").isEqualTo(accepted.get(id));
      views += (Long) d.fields().get("views");
    }
    assertThat(lost).as("lost updates").isZero();
    assertThat(accepted.values().stream().mapToInt(Set::size).sum())
        .isEqualTo(THREADS * EDITS_PER_THREAD);
    assertThat(conflicts.get())
        .as("conflicts detected of %s attempts", attempts.get())
        .isPositive();
    assertThat(views).isEqualTo(increments.get());

    // Each document is listed under exactly its final source and day, and nowhere else.
    for (String id : ids) {
      Document d = docs.get("blog", id);
      String host = java.net.URI.create((String) d.fields().get("url")).getHost();
      String day = ((String) d.fields().get("created")).substring(0, 10);
      for (String h : hosts()) {
        for (String dd : DAYS) {
          boolean expected = h.equals(host) && dd.equals(day);
          assertThat(list(h, dd))
              .as("%s under %s %s", id, h, dd)
              .matches(l -> l.contains(id) == expected);
        }
      }
    }
    IndexRepair repair = docs.repairIndex("blog");
    assertThat(repair.missingAdded()).as("committed states without an entry").isZero();
    IndexRepair again = docs.repairIndex("blog");
    assertThat(again.staleRemoved()).isZero();
    assertThat(again.missingAdded()).isZero();
  }

  private List<String> list(String host, String day) {
    return store.listAll("blog", host, day, 100);
  }

  @Test
  void writesWithoutIfMatchAllLandAndCommentsDieWithTheirParent() throws Exception {
    String id = "https://" + hosts().get(1) + "/thread";
    docs.put("bbs", id, Map.of("title", "t"), OptionalLong.empty());
    Set<Long> versions = ConcurrentHashMap.newKeySet();
    ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    List<Future<?>> futures = new ArrayList<>();
    for (int t = 0; t < THREADS; t++) {
      int thread = t;
      futures.add(
          pool.submit(
              () -> {
                for (int i = 0; i < 10; i++) {
                  Document patched =
                      docs.patch(
                          "bbs", id, Map.of("corrections", "by " + thread), OptionalLong.empty());
                  versions.add(patched.version());
                  docs.addComment(
                      "bbs", id, null, "t" + thread + "-" + i, Map.of("content", "回复 " + i));
                }
                return null;
              }));
    }
    for (Future<?> f : futures) {
      f.get(5, TimeUnit.MINUTES);
    }
    pool.shutdown();
    Document d = docs.get("bbs", id);
    assertThat(versions).as("one distinct version per write").hasSize(THREADS * 10);
    assertThat(d.version()).as("the last write's").isEqualTo(Collections.max(versions));
    assertThat(docs.comments("bbs", id, null, CommentOrder.OLDEST, PageRequest.first(1000)).items())
        .hasSize(THREADS * 10);
    docs.delete("bbs", id, OptionalLong.empty());
    docs.put("bbs", id, Map.of("title", "again"), OptionalLong.empty());
    assertThat(docs.comments("bbs", id, null, CommentOrder.OLDEST, PageRequest.first(1000)).items())
        .isEmpty();
  }
}
