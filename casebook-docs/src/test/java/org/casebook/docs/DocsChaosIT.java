package org.casebook.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import org.casebook.core.HBaseRuntime;
import org.casebook.core.PreconditionFailedException;
import org.casebook.core.chaos.ChaosAction;
import org.casebook.core.page.PageRequest;
import org.casebook.core.schema.TableSpec;
import org.casebook.core.testing.ChaosLoad;
import org.casebook.core.testing.EmbeddedHBase;
import org.casebook.core.testing.TestIds;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Editors writing back over the version they read, counters and comments, while the documents'
 * regions split, merge, flush and compact: no accepted edit lost, nothing stored that was not sent,
 * counters and comments complete, the source-day index exact.
 */
@ExtendWith(EmbeddedHBase.class)
class DocsChaosIT {
  private static final int DOCS = 3;
  private static final String DAY = "2026-09-01";

  private DocsTestStore store;
  private DocsService docs;
  private String run;

  @BeforeEach
  void setUp(HBaseRuntime runtime) {
    store = new DocsTestStore(runtime);
    docs = store.docs;
    run = TestIds.unique("chaos");
  }

  @AfterEach
  void tearDown() {
    store.close();
  }

  @Test
  void editsCountersAndCommentsSurviveRegionChaos(HBaseRuntime runtime) throws Exception {
    String host = run + ".example.com";
    List<String> ids = new ArrayList<>();
    for (int d = 0; d < DOCS; d++) {
      String url = "https://" + host + "/p/" + d;
      Map<String, Object> body =
          DocsServiceIT.json(
              Map.of(
                  "title",
                  "page " + d,
                  "url",
                  url,
                  "created",
                  DAY + "T12:00:00Z",
                  "views",
                  0,
                  "tags",
                  List.of()));
      ids.add(docs.put("blog", url, body, OptionalLong.empty()).document().id());
    }
    String thread = "https://" + host + "/thread";
    docs.put("bbs", thread, Map.of("title", "t"), OptionalLong.empty());

    // Acknowledged, and sent but unanswered (an error other than a refusal: maybe stored).
    Map<String, Set<String>> accepted = new ConcurrentHashMap<>();
    Map<String, Set<String>> unanswered = new ConcurrentHashMap<>();
    Map<String, Set<String>> droppedOnPurpose = new ConcurrentHashMap<>();
    ids.forEach(
        id -> {
          accepted.put(id, ConcurrentHashMap.newKeySet());
          unanswered.put(id, ConcurrentHashMap.newKeySet());
          droppedOnPurpose.put(id, ConcurrentHashMap.newKeySet());
        });
    Set<String> comments = ConcurrentHashMap.newKeySet();
    Set<String> commentsUnanswered = ConcurrentHashMap.newKeySet();
    AtomicLong increments = new AtomicLong();
    AtomicLong incrementsUnanswered = new AtomicLong();
    AtomicLong conflicts = new AtomicLong();

    ChaosLoad.Report report =
        ChaosLoad.run(
            runtime.connection(),
            DocsService.schemas("docs").stream().map(TableSpec::name).toList(),
            33,
            Duration.ofSeconds(6),
            Duration.ofMillis(300),
            4,
            (worker, i) -> {
              String id = ids.get(ThreadLocalRandom.current().nextInt(DOCS));
              String token = "w" + worker + "-" + i;
              Document read = docs.get("blog", id);
              @SuppressWarnings("unchecked") // tags are a list of keywords
              List<String> tags = new ArrayList<>((List<String>) read.fields().get("tags"));
              // A long run stays under the keyword limit: the editor drops the oldest tags, on
              // purpose, and says so; only a tag no accepted edit dropped must stay.
              List<String> dropped = new ArrayList<>();
              if (tags.size() >= DocLimits.MAX_KEYWORDS - 10) {
                dropped.addAll(tags.subList(0, tags.size() / 2));
                tags.subList(0, tags.size() / 2).clear();
              }
              tags.add(token);
              try {
                docs.patch(
                    "blog",
                    id,
                    DocsServiceIT.json(Map.of("tags", tags)),
                    OptionalLong.of(read.version()));
                accepted.get(id).add(token);
                droppedOnPurpose.get(id).addAll(dropped);
              } catch (PreconditionFailedException lost) {
                conflicts.incrementAndGet(); // refused: another editor wrote first
              } catch (RuntimeException e) {
                unanswered.get(id).add(token);
                droppedOnPurpose.get(id).addAll(dropped); // maybe stored
                throw e;
              }
              try {
                docs.increment("blog", id, "views", 1);
                increments.incrementAndGet();
              } catch (RuntimeException e) {
                incrementsUnanswered.incrementAndGet();
                throw e;
              }
              String text = "回复 " + token;
              try {
                docs.addComment("bbs", thread, null, token, Map.of("content", text));
                comments.add(text);
              } catch (RuntimeException e) {
                commentsUnanswered.add(text);
                throw e;
              }
            });

    assertThat(report.done(ChaosAction.SPLIT)).as(report.toString()).isPositive();
    assertThat(accepted.values().stream().mapToInt(Set::size).sum())
        .as(report.toString())
        .isPositive();
    long views = 0;
    for (String id : ids) {
      Document d = docs.get("blog", id);
      @SuppressWarnings("unchecked") // tags are a list of keywords
      Set<String> stored = new HashSet<>((List<String>) d.fields().get("tags"));
      Set<String> kept = new HashSet<>(accepted.get(id));
      kept.removeAll(droppedOnPurpose.get(id));
      assertThat(stored).as("accepted edits of %s\n%s", id, report).containsAll(kept);
      Set<String> sent = new HashSet<>(accepted.get(id));
      sent.addAll(unanswered.get(id));
      assertThat(sent).as("only edits sent are stored, %s\n%s", id, report).containsAll(stored);
      views += (Long) d.fields().get("views");
    }
    assertThat(views)
        .as("views: every acknowledged increment, and at most the unanswered ones\n%s", report)
        .isBetween(increments.get(), increments.get() + incrementsUnanswered.get());
    List<String> storedComments = new ArrayList<>();
    java.util.Optional<String> cursor = java.util.Optional.empty();
    do {
      org.casebook.core.page.Page<Document> page =
          docs.comments(
              "bbs",
              thread,
              null,
              CommentOrder.OLDEST,
              new PageRequest(PageRequest.MAX_LIMIT, cursor));
      page.items().forEach(c -> storedComments.add((String) c.fields().get("content")));
      cursor = page.next();
    } while (cursor.isPresent());
    assertThat(storedComments).as("each comment once\n%s", report).doesNotHaveDuplicates();
    assertThat(storedComments).as(report.toString()).containsAll(comments);
    Set<String> commentsSent = new HashSet<>(comments);
    commentsSent.addAll(commentsUnanswered);
    assertThat(commentsSent).as(report.toString()).containsAll(storedComments);
    for (String id : ids) {
      assertThat(store.listAll("blog", host, DAY, 100))
          .as("%s listed under its source and day\n%s", id, report)
          .containsOnlyOnce(id);
    }
    IndexRepair repair = docs.repairIndex("blog");
    assertThat(repair.missingAdded()).as("committed states without an entry").isZero();
  }
}
