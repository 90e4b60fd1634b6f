package org.casebook.bench;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.SplittableRandom;
import org.casebook.core.PreconditionFailedException;
import org.casebook.core.cli.Progress;
import org.casebook.core.page.PageRequest;
import org.casebook.docs.BulkSummary;
import org.casebook.docs.CommentOrder;
import org.casebook.docs.DocsService;
import org.casebook.docs.Document;
import org.casebook.docs.wire.BulkNdjson;

/**
 * {@code bench docs}' steps on Casebook, through the document store's Java API: the bulk load of
 * the generated NDJSON (read by the store's own {@code _bulk} reader, as the CLI and REST API read
 * it), single-document reads, a blog with its 100 comments, and the concurrent editors.
 */
final class DocsCasebookSteps {
  /** Reads before the timed ones (JIT, connections, block cache). */
  private static final int WARM_UP_READS = 300;

  private DocsCasebookSteps() {}

  /** Bulk-loads the generated file: seconds, documents stored, documents failed. */
  static double[] bulkLoad(DocsService docs, DocsBenchCorpus g) throws IOException {
    long t0 = System.nanoTime();
    BulkSummary summary;
    try (InputStream lines = Files.newInputStream(g.file());
        Progress p = Progress.start("bulk", g.documents(), "docs")) {
      summary = docs.bulk(BulkNdjson.actions(lines), item -> p.advance(1));
    }
    double secs = (System.nanoTime() - t0) / 1e9;
    return new double[] {secs, summary.actions() - summary.failed(), summary.failed()};
  }

  /** Timed reads, the blog with its comments and the editors, each a row of {@code table}. */
  static void reads(
      DocsService docs,
      DocsBenchCorpus g,
      DocsBenchmark.Options o,
      List<String> hot,
      BenchTable table)
      throws Exception {
    SplittableRandom rnd = new SplittableRandom(3);
    for (int i = 0; i < WARM_UP_READS; i++) { // warm-up, not reported
      String[] k = DocsBenchCorpus.key(g.pageIds().get(rnd.nextInt(g.pageIds().size())));
      docs.get(k[0], k[1]);
    }
    Latency read = new Latency();
    for (int i = 0; i < o.samples; i++) {
      String[] k = DocsBenchCorpus.key(g.pageIds().get(rnd.nextInt(g.pageIds().size())));
      long s = System.nanoTime();
      docs.get(k[0], k[1]);
      read.recordNanos(System.nanoTime() - s);
    }
    table.add("Casebook: read one document", read.count(), "reads", 0, read, "one Get, BI + DI");

    Latency thread = new Latency();
    for (int i = 0; i < Math.max(50, o.samples / 10); i++) {
      long s = System.nanoTime();
      docs.get("blog", g.bigBlog());
      int n =
          docs.comments("blog", g.bigBlog(), null, CommentOrder.OLDEST, PageRequest.first(100))
              .items()
              .size();
      thread.recordNanos(System.nanoTime() - s);
      if (n != 100) {
        throw new IllegalStateException("expected 100 comments, read " + n);
      }
    }
    table.add(
        "Casebook: a blog with its 100 comments",
        thread.count(),
        "reads",
        0,
        thread,
        "Get + one prefix scan");

    DocsEditors.Figures f =
        DocsEditors.run(
            o.clients,
            o.edits,
            hot,
            (key, token) -> edit(docs, key, token),
            key -> {
              String[] k = DocsBenchCorpus.key(key);
              return DocsEditors.tokens(docs.get(k[0], k[1]).fields().get("corrections"));
            });
    table.add(
        "Casebook: concurrent edits (If-Match)",
        f.accepted(),
        "edits",
        f.seconds(),
        f.latency(),
        f.note());
  }

  /** Read, append the token to the corrections, PATCH with If-Match; a 412 is redone. */
  private static void edit(DocsService docs, String key, String token) {
    String[] k = DocsBenchCorpus.key(key);
    while (true) {
      Document d = docs.get(k[0], k[1]);
      Object old = d.fields().get("corrections");
      Map<String, Object> patch = Map.of("corrections", (old == null ? "" : old + " ") + token);
      try {
        docs.patch(k[0], k[1], patch, OptionalLong.of(d.version()));
        return;
      } catch (PreconditionFailedException conflict) {
        DocsEditors.conflict();
      }
    }
  }
}
