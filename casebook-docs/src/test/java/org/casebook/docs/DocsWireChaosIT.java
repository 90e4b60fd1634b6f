package org.casebook.docs;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import org.casebook.core.AccessRule;
import org.casebook.core.HBaseRuntime;
import org.casebook.core.Json;
import org.casebook.core.chaos.ChaosAction;
import org.casebook.core.schema.TableSpec;
import org.casebook.core.testing.ChaosLoad;
import org.casebook.core.testing.EmbeddedHBase;
import org.casebook.core.testing.ServedSystem;
import org.casebook.core.testing.TestIds;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The document store's REST API under region chaos: the system served as {@code serve} serves it,
 * four clients acting as editors of the same few documents (GET with its ETag, add the editor's
 * token to the tags, PUT the whole document back with {@code If-Match}; on 412 read again and redo
 * the change), each edit followed by a view counted with {@code _increment} and a comment on a
 * thread, while HBase splits, merges, moves, flushes and compacts the store's tables. A write
 * answered 2xx is acknowledged; one answered 503 or not at all may or may not be stored; a good
 * request is never answered another 4xx or 5xx than 412 to a stale edit.
 *
 * <p>Afterwards, through the REST API: every token an acknowledged edit stored is in its document
 * exactly once (unless a later edit dropped it on purpose to stay under the keyword limit), and
 * nothing that was never sent; the acknowledged edits of a document form one chain of versions,
 * each made over the version the one before it made, with no more gaps than edits in doubt (two
 * accepted edits over one version would be a lost update); a read never shows a version older than
 * one already acknowledged, nor other tags than the acknowledged edit of its version stored; the
 * views count every acknowledged increment and at most the ones in doubt; the thread holds every
 * acknowledged comment once, and nothing unsent; the source-day listing names each document once.
 */
@ExtendWith(EmbeddedHBase.class)
class DocsWireChaosIT {
  private static final int DOCS = 2;
  private static final String DAY = "2026-09-01";

  /** Tries of one edit against newer versions before the step gives up (each a 412). */
  private static final int EDIT_ATTEMPTS = 50;

  private static final Set<String> GOOD_ANSWERS =
      Set.of(
          "GET 200",
          "GET 503",
          "GET no answer",
          "PUT 200",
          "PUT 412",
          "PUT 503",
          "PUT no answer",
          "increment 200",
          "increment 503",
          "increment no answer",
          "comment 201",
          "comment 503",
          "comment no answer");

  private static final HttpClient CLIENT =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  /** An acknowledged edit: its token, the version it was made over, the one it made, its tags. */
  private record Edit(String token, long over, long made, List<String> tags) {}

  /** A document as one GET showed it. */
  private record Read(long version, ObjectNode fields, List<String> tags) {}

  /** What the clients did to one document and what they were answered. */
  private static final class DocLedger {
    final String id;
    final long firstVersion;
    final Map<Long, Edit> acknowledged = new ConcurrentHashMap<>();
    final Set<String> inDoubt = ConcurrentHashMap.newKeySet();
    final Set<String> droppedOnPurpose = ConcurrentHashMap.newKeySet();
    final AtomicLong highestAcknowledged;
    final AtomicLong increments = new AtomicLong();
    final AtomicLong incrementsInDoubt = new AtomicLong();
    final Set<Long> incrementAnswers = ConcurrentHashMap.newKeySet();

    DocLedger(String id, long firstVersion) {
      this.id = id;
      this.firstVersion = firstVersion;
      this.highestAcknowledged = new AtomicLong(firstVersion);
    }

    Set<String> tokensAcknowledged() {
      Set<String> out = new HashSet<>();
      acknowledged.values().forEach(e -> out.add(e.token()));
      return out;
    }
  }

  /** Answers by request and status, comments sent, and what a client saw that must not be. */
  private record Ledger(
      Map<String, Long> answers,
      Set<String> comments,
      Set<String> commentsInDoubt,
      AtomicLong conflicts,
      List<String> anomalies) {
    Ledger() {
      this(
          new ConcurrentHashMap<>(),
          ConcurrentHashMap.newKeySet(),
          ConcurrentHashMap.newKeySet(),
          new AtomicLong(),
          Collections.synchronizedList(new ArrayList<>()));
    }

    void answered(String request, String status) {
      answers.merge(request + " " + status, 1L, Long::sum);
    }
  }

  @Test
  void editsCountersAndCommentsAcknowledgedOverHttpSurviveRegionChaos(HBaseRuntime runtime)
      throws Exception {
    String namespace = TestIds.unique("docs_wire").replace('-', '_');
    String host = TestIds.unique("wire") + ".example.com";
    Ledger ledger = new Ledger();
    try (ServedSystem served =
        ChaosLoad.afterRecovery(
            () ->
                ServedSystem.start(
                    runtime,
                    new DocsSystem(),
                    AccessRule.open(),
                    Map.of("docs.namespace", namespace)))) {
      String base = served.url("/api/docs/");
      List<DocLedger> docs = new ArrayList<>();
      for (int d = 0; d < DOCS; d++) {
        String url = "https://" + host + "/p/" + d;
        ObjectNode body = Json.mapper().createObjectNode();
        body.put("title", "page " + d).put("url", url).put("created", DAY + "T12:00:00Z");
        body.put("views", 0).putArray("tags");
        long version = ChaosLoad.afterRecovery(() -> create(base + "blog/" + enc(url), body));
        docs.add(new DocLedger(url, version));
      }
      String thread = base + "bbs/" + enc("https://" + host + "/thread");
      ObjectNode threadBody = Json.mapper().createObjectNode();
      threadBody.put("title", "t").put("url", "https://" + host + "/thread");
      ChaosLoad.afterRecovery(() -> create(thread, threadBody));

      ChaosLoad.Report report =
          ChaosLoad.run(
              runtime.connection(),
              DocsService.schemas(namespace).stream().map(TableSpec::name).toList(),
              71L,
              Duration.ofSeconds(6),
              Duration.ofMillis(300),
              4,
              (worker, iteration) -> {
                DocLedger doc = docs.get(ThreadLocalRandom.current().nextInt(DOCS));
                String token = "w" + worker + "-" + iteration;
                edit(base, doc, token, ledger);
                increment(base, doc, ledger);
                comment(thread, token, ledger);
              });

      long edits = docs.stream().mapToLong(d -> d.acknowledged.size()).sum();
      long editsInDoubt = docs.stream().mapToLong(d -> d.inDoubt.size()).sum();
      long increments = docs.stream().mapToLong(d -> d.increments.get()).sum();
      String what =
          report.toString()
              + edits
              + " edits acknowledged ("
              + editsInDoubt
              + " in doubt, "
              + ledger.conflicts.get()
              + " refused as stale), "
              + increments
              + " increments acknowledged, "
              + ledger.comments.size()
              + " comments acknowledged, answers "
              + new TreeMap<>(ledger.answers);
      System.out.println("docs over HTTP under chaos: " + what);
      assertThat(report.done(ChaosAction.SPLIT)).as(what).isPositive();
      assertThat(edits).as(what).isPositive();
      assertThat(ledger.answers.keySet())
          .as("answers to good requests other than 2xx, 412 to a stale edit, 503 " + what)
          .isSubsetOf(GOOD_ANSWERS);
      assertThat(ledger.anomalies).as("what the clients saw during the run " + what).isEmpty();

      for (DocLedger doc : docs) {
        Read last = ChaosLoad.afterRecovery(() -> read(base, doc, null));
        verifyTags(doc, last, what);
        verifyChain(doc, last.version(), what);
        long views = last.fields().path("views").asLong(0);
        assertThat(views)
            .as(
                "views of %s: every acknowledged increment, at most those in doubt %s",
                doc.id, what)
            .isBetween(doc.increments.get(), doc.increments.get() + doc.incrementsInDoubt.get());
        assertThat(doc.incrementAnswers.stream().mapToLong(Long::longValue).max().orElse(0))
            .as("an increment answered a count above the final one, %s %s", doc.id, what)
            .isLessThanOrEqualTo(views);
      }
      List<String> stored = ChaosLoad.afterRecovery(() -> commentContents(thread));
      assertThat(stored).as("each comment once " + what).doesNotHaveDuplicates();
      assertThat(stored).as("acknowledged comments " + what).containsAll(ledger.comments);
      Set<String> sent = new HashSet<>(ledger.comments);
      sent.addAll(ledger.commentsInDoubt);
      assertThat(sent).as("only comments sent are stored " + what).containsAll(stored);
      List<String> listed =
          ChaosLoad.afterRecovery(
              () -> ids(get(base + "blog?source=" + host + "&day=" + DAY + "&limit=1000")));
      for (DocLedger doc : docs) {
        assertThat(listed).as("listed under its source and day " + what).containsOnlyOnce(doc.id);
      }
    } finally {
      ChaosLoad.dropAfterwards(runtime.connection(), namespace);
    }
  }

  // ---- the editors' steps

  /**
   * Reads the document, adds {@code token} to its tags and writes it back over the version read,
   * reading again after each 412. A long run stays under the keyword limit: the editor drops the
   * oldest half of the tags on purpose and says so.
   */
  private static void edit(String base, DocLedger doc, String token, Ledger ledger)
      throws Exception {
    for (int attempt = 0; attempt < EDIT_ATTEMPTS; attempt++) {
      Read read = read(base, doc, ledger);
      List<String> tags = new ArrayList<>(read.tags());
      if (tags.contains(token)) {
        // Only a write answered 412 came before: a refused edit must not be stored.
        ledger.anomalies.add(doc.id + ": edit " + token + " answered 412 and stored");
        doc.inDoubt.add(token);
        return;
      }
      List<String> dropped = new ArrayList<>();
      if (tags.size() >= DocLimits.MAX_KEYWORDS - 10) {
        dropped.addAll(tags.subList(0, tags.size() / 2));
        tags.subList(0, tags.size() / 2).clear();
      }
      tags.add(token);
      ObjectNode body = read.fields().deepCopy();
      body.set("tags", Json.mapper().valueToTree(tags));
      HttpResponse<String> r;
      try {
        r =
            send(
                "PUT", base + "blog/" + enc(doc.id), body.toString(), "\"" + read.version() + "\"");
      } catch (IOException e) {
        ledger.answered("PUT", "no answer");
        inDoubt(doc, token, dropped);
        throw e;
      }
      ledger.answered("PUT", Integer.toString(r.statusCode()));
      if (r.statusCode() == 412) {
        ledger.conflicts.incrementAndGet(); // another editor wrote first: redo over its version
        continue;
      }
      if (r.statusCode() != 200) {
        inDoubt(doc, token, dropped);
        throw new IOException("PUT answered " + r.statusCode() + ": " + r.body());
      }
      JsonNode written = Json.mapper().readTree(r.body());
      long made = written.get("version").asLong();
      checkEtag(r, made, ledger);
      if (made <= read.version() || !tags.equals(tags(written.get("fields")))) {
        ledger.anomalies.add(
            doc.id + ": PUT over " + read.version() + " of " + tags + " answered " + r.body());
      }
      doc.droppedOnPurpose.addAll(dropped);
      if (doc.acknowledged.putIfAbsent(made, new Edit(token, read.version(), made, tags)) != null) {
        ledger.anomalies.add(doc.id + ": two edits acknowledged with version " + made);
      }
      doc.highestAcknowledged.accumulateAndGet(made, Math::max);
      return;
    }
    throw new IllegalStateException(doc.id + ": edit " + token + " refused " + EDIT_ATTEMPTS + "x");
  }

  private static void inDoubt(DocLedger doc, String token, List<String> dropped) {
    doc.inDoubt.add(token);
    doc.droppedOnPurpose.addAll(dropped); // maybe stored
  }

  /** One view counted, without a version. */
  private static void increment(String base, DocLedger doc, Ledger ledger) throws Exception {
    HttpResponse<String> r;
    try {
      r = send("POST", base + "blog/" + enc(doc.id) + "/_increment", "{\"field\":\"views\"}", null);
    } catch (IOException e) {
      ledger.answered("increment", "no answer");
      doc.incrementsInDoubt.incrementAndGet();
      throw e;
    }
    ledger.answered("increment", Integer.toString(r.statusCode()));
    if (r.statusCode() != 200) {
      doc.incrementsInDoubt.incrementAndGet();
      throw new IOException("increment answered " + r.statusCode() + ": " + r.body());
    }
    doc.increments.incrementAndGet();
    long value = Json.mapper().readTree(r.body()).get("value").asLong();
    if (!doc.incrementAnswers.add(value)) {
      ledger.anomalies.add(doc.id + ": two increments answered the count " + value);
    }
  }

  /** One comment on the thread, its text naming the step. */
  private static void comment(String thread, String token, Ledger ledger) throws Exception {
    String text = "回复 " + token;
    ObjectNode body = Json.mapper().createObjectNode().put("content", text);
    HttpResponse<String> r;
    try {
      r = send("POST", thread + "/comments", body.toString(), null);
    } catch (IOException e) {
      ledger.answered("comment", "no answer");
      ledger.commentsInDoubt.add(text);
      throw e;
    }
    ledger.answered("comment", Integer.toString(r.statusCode()));
    if (r.statusCode() != 201) {
      ledger.commentsInDoubt.add(text);
      throw new IOException("comment answered " + r.statusCode() + ": " + r.body());
    }
    ledger.comments.add(text);
  }

  /**
   * The document as a GET shows it; a storage error (503, no answer) is an {@link IOException}.
   * With a {@code ledger} (during the run) what the read must show is checked: no version older
   * than one acknowledged before the read began, and the tags the acknowledged edit of its version
   * stored.
   */
  private static Read read(String base, DocLedger doc, Ledger ledger) throws Exception {
    long floor = doc.highestAcknowledged.get();
    HttpResponse<String> r;
    try {
      r = send("GET", base + "blog/" + enc(doc.id), null, null);
    } catch (IOException e) {
      if (ledger != null) {
        ledger.answered("GET", "no answer");
      }
      throw e;
    }
    if (ledger != null) {
      ledger.answered("GET", Integer.toString(r.statusCode()));
    }
    if (r.statusCode() == 503) {
      throw new IOException("GET answered 503: " + r.body());
    }
    if (r.statusCode() != 200) {
      throw new IllegalStateException("GET answered " + r.statusCode() + ": " + r.body());
    }
    JsonNode d = Json.mapper().readTree(r.body());
    long version = d.get("version").asLong();
    List<String> tags = tags(d.get("fields"));
    if (ledger != null) {
      checkEtag(r, version, ledger);
      if (version < floor) {
        ledger.anomalies.add(doc.id + ": read version " + version + " after " + floor + " acked");
      }
      Edit e = doc.acknowledged.get(version);
      if (e != null && !e.tags().equals(tags)) {
        ledger.anomalies.add(doc.id + ": version " + version + " shows " + tags + ", stored " + e);
      }
    }
    return new Read(version, (ObjectNode) d.get("fields"), tags);
  }

  private static void checkEtag(HttpResponse<String> r, long version, Ledger ledger) {
    String etag = r.headers().firstValue("ETag").orElse(null);
    if (!("\"" + version + "\"").equals(etag)) {
      ledger.anomalies.add(
          r.request().method() + " answered version " + version + ", ETag " + etag);
    }
  }

  // ---- verification

  /**
   * Every token an acknowledged edit stored is there once unless an edit dropped it on purpose;
   * every token there was sent; the final version's tags are its edit's, when acknowledged.
   */
  private static void verifyTags(DocLedger doc, Read last, String what) {
    Map<String, Integer> times = new HashMap<>();
    last.tags().forEach(t -> times.merge(t, 1, Integer::sum));
    times.values().removeIf(n -> n == 1);
    assertThat(times).as("tokens of %s stored more than once %s", doc.id, what).isEmpty();
    Set<String> kept = doc.tokensAcknowledged();
    kept.removeAll(doc.droppedOnPurpose);
    assertThat(last.tags()).as("acknowledged edits of %s %s", doc.id, what).containsAll(kept);
    Set<String> sent = doc.tokensAcknowledged();
    sent.addAll(doc.inDoubt);
    assertThat(sent).as("only edits sent are stored, %s %s", doc.id, what).containsAll(last.tags());
    Edit lastEdit = doc.acknowledged.get(last.version());
    if (lastEdit != null) {
      assertThat(last.tags())
          .as("%s as its last edit stored it %s", doc.id, what)
          .isEqualTo(lastEdit.tags());
    }
  }

  /**
   * The acknowledged edits in the order of the versions they made: each was made over the version
   * the one before made (the first over the document's first version), or over a later one that an
   * edit in doubt made; so no gap without an edit in doubt to fill it, and never over an older one.
   */
  private static void verifyChain(DocLedger doc, long finalVersion, String what) {
    List<Edit> chain = new ArrayList<>(doc.acknowledged.values());
    chain.sort((a, b) -> Long.compare(a.made(), b.made()));
    long previous = doc.firstVersion;
    int gaps = 0;
    for (Edit e : chain) {
      assertThat(e.over())
          .as(
              "%s: edit %s accepted over a version older than the last acknowledged %s",
              doc.id, e, what)
          .isGreaterThanOrEqualTo(previous);
      gaps += e.over() == previous ? 0 : 1;
      previous = e.made();
    }
    assertThat(finalVersion)
        .as("%s: final version against the last acknowledged %s", doc.id, what)
        .isGreaterThanOrEqualTo(previous);
    gaps += finalVersion == previous ? 0 : 1;
    assertThat(gaps)
        .as("%s: versions no acknowledged edit made, against edits in doubt %s", doc.id, what)
        .isLessThanOrEqualTo(doc.inDoubt.size());
  }

  /** The contents of the thread's comments, oldest first, every page. */
  private static List<String> commentContents(String thread) throws Exception {
    List<String> out = new ArrayList<>();
    String cursor = null;
    do {
      JsonNode page =
          get(
              thread
                  + "/comments?order=oldest&limit=1000"
                  + (cursor == null ? "" : "&cursor=" + enc(cursor)));
      page.get("documents").forEach(c -> out.add(c.get("fields").get("content").asText()));
      cursor = page.get("next").isNull() ? null : page.get("next").asText();
    } while (cursor != null);
    return out;
  }

  private static List<String> ids(JsonNode page) {
    List<String> out = new ArrayList<>();
    page.get("documents").forEach(d -> out.add(d.get("id").asText()));
    return out;
  }

  // ---- HTTP

  /** A document stored whole (sent again while storage is out of reach): its version. */
  private static long create(String url, ObjectNode body) throws Exception {
    HttpResponse<String> r = send("PUT", url, body.toString(), null);
    if (r.statusCode() == 503) {
      throw new IOException("PUT answered 503: " + r.body());
    }
    assertThat(r.statusCode()).as(r.body()).isIn(200, 201);
    return Json.mapper().readTree(r.body()).get("version").asLong();
  }

  /** A 200 answer's JSON; a 503 is an {@link IOException} (storage out of reach for now). */
  private static JsonNode get(String url) throws Exception {
    HttpResponse<String> r = send("GET", url, null, null);
    if (r.statusCode() == 503) {
      throw new IOException("GET answered 503: " + r.body());
    }
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    return Json.mapper().readTree(r.body());
  }

  private static List<String> tags(JsonNode fields) {
    List<String> out = new ArrayList<>();
    fields.path("tags").forEach(t -> out.add(t.asText()));
    return out;
  }

  private static String enc(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
  }

  private static HttpResponse<String> send(String method, String url, String body, String ifMatch)
      throws IOException, InterruptedException {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create(url))
            .timeout(Duration.ofSeconds(60))
            .header("Content-Type", "application/json")
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body));
    if (ifMatch != null) {
      b.header("If-Match", ifMatch);
    }
    return CLIENT.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }
}
