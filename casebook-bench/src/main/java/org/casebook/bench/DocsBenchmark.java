package org.casebook.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.casebook.core.InvalidInputException;
import org.casebook.core.SystemContext;
import org.casebook.core.schema.SchemaManager;
import org.casebook.docs.DocsService;
import org.casebook.docs.gen.DocGenerator;
import org.casebook.server.Session;
import picocli.CommandLine.Option;

/**
 * {@code bench docs}: bulk load of generated crawled pages with their comments, single-document
 * reads, a blog with 100 comments, and 8 clients editing the same documents over the version they
 * read (each edit appends a token to the page's corrections) — on Casebook and on PostgreSQL 16
 * (JSONB, optimistic UPDATE … WHERE version = ?) with the same documents in the same run, plus the
 * raw BufferedMutator ceiling at the same value size.
 *
 * <p>The store runs on a context of its own whose {@code docs.namespace} setting is {@link
 * #NAMESPACE}: each round drops that namespace and the store creates its tables again.
 */
final class DocsBenchmark {
  static final String NAMESPACE = "casebook_bench_docs";

  /** Sizes; the defaults finish in a few minutes on a 2-core machine; the is 200,000. */
  static final class Options {
    @Option(
        paramLabel = "N",
        names = "--documents",
        defaultValue = "200000",
        description = "Documents to load, pages and comments (default ${DEFAULT-VALUE}).")
    int documents;

    @Option(
        paramLabel = "BYTES",
        names = "--page-bytes",
        defaultValue = "2000",
        description = "Approximate content bytes of a page (default ${DEFAULT-VALUE}).")
    int pageBytes;

    @Option(
        paramLabel = "BYTES",
        names = "--comment-bytes",
        defaultValue = "2000",
        description =
            "Mean content bytes of a comment (default ${DEFAULT-VALUE}: documents average ~2 KB,"
                + " the issue's size; "
                + DocGenerator.DEFAULT_COMMENT_BYTES
                + " is a typical forum comment).")
    int commentBytes;

    @Option(
        paramLabel = "N",
        names = "--samples",
        defaultValue = "2000",
        description = "Timed single-document reads (default ${DEFAULT-VALUE}).")
    int samples;

    @Option(
        paramLabel = "N",
        names = "--clients",
        defaultValue = "8",
        description = "Concurrent editors (default ${DEFAULT-VALUE}).")
    int clients;

    @Option(
        paramLabel = "N",
        names = "--edits",
        defaultValue = "50",
        description = "Accepted edits per editor (default ${DEFAULT-VALUE}).")
    int edits;

    @Option(
        paramLabel = "N",
        names = "--raw-rows",
        defaultValue = "200000",
        description = "Rows of the raw ceiling run (value size = mean document); 0 skips it.")
    int rawRows;

    @Option(
        paramLabel = "N",
        names = "--raw-cells",
        defaultValue = "1",
        description =
            "Cells per raw row: one of the mean document size, the others of 16 B; the generated"
                + " documents average 3.6 (a comment 3, a page 5 with its index entry) (default"
                + " ${DEFAULT-VALUE}: the plain ceiling).")
    int rawCells;

    @Option(
        paramLabel = "N",
        names = "--rounds",
        defaultValue = "3",
        description =
            "Rounds of raw write then bulk load, alternating, after one untimed warm-up round;"
                + " medians compared (default ${DEFAULT-VALUE}).")
    int rounds;

    @Option(names = "--no-postgres", description = "Skip the PostgreSQL side.")
    boolean noPostgres;

    @Option(
        paramLabel = "DIR",
        names = "--work",
        defaultValue = "bench-work/docs",
        description = "Scratch directory (default ${DEFAULT-VALUE}).")
    Path work;

    void validate() {
      InvalidInputException.check(documents >= 500, "documents", "--documents must be >= 500");
      InvalidInputException.check(samples >= 100, "samples", "--samples must be at least 100");
      InvalidInputException.check(
          clients >= 1 && clients <= 64, "clients", "--clients must be 1..64");
      InvalidInputException.check(edits >= 1, "edits", "--edits must be at least 1");
      InvalidInputException.check(rounds >= 1 && rounds <= 9, "rounds", "--rounds: 1..9");
      InvalidInputException.check(
          rawCells >= 1 && rawCells <= 100, "raw-cells", "--raw-cells: 1..100");
    }
  }

  /** Documents edited concurrently: few, so that editors collide. */
  private static final int HOT_DOCS = 4;

  private final Session session;
  private final Options o;

  DocsBenchmark(Session session, Options options) {
    this.session = session;
    this.o = options;
    options.validate();
  }

  Map<String, Object> run() throws Exception {
    Map<String, Object> json = new LinkedHashMap<>();
    Files.createDirectories(o.work);
    BenchTable table =
        new BenchTable(
            String.format(
                Locale.ROOT,
                "bench docs: %,d documents (pages ~%d B, comments ~%d B), %d editors",
                o.documents,
                o.pageBytes,
                o.commentBytes,
                o.clients));
    long t0 = System.nanoTime();
    DocsBenchCorpus g = DocsBenchCorpus.generate(o.work, o.documents, o.pageBytes, o.commentBytes);
    long meanBytes = g.meanBytes();
    table.add(
        "generate NDJSON (zh + en, heavy-tailed comments)",
        g.documents(),
        "docs",
        (System.nanoTime() - t0) / 1e9,
        null,
        String.format(Locale.ROOT, "%,d MB, mean %d B", g.documentBytes() >> 20, meanBytes));

    List<String> hot = g.pageIds().subList(0, HOT_DOCS);
    SystemContext tool = session.context("bench");
    SchemaManager schemas = new SchemaManager(tool.connection());
    List<Double> rawRowsPerSecond = new ArrayList<>();
    try {
      SystemContext docsContext =
          session.context(session.system("docs"), Map.of("docs.namespace", NAMESPACE));
      DocsService docs = loadRounds(docsContext, tool, schemas, g, table, rawRowsPerSecond);
      DocsCasebookSteps.reads(docs, g, o, hot, table);
    } finally {
      schemas.dropNamespace(NAMESPACE);
    }
    Double raw = null;
    if (!rawRowsPerSecond.isEmpty()) {
      raw = DocsBenchReport.rawRow(table, rawRowsPerSecond, o.rawRows, o.rawCells, meanBytes);
      json.put("rawCellsPerSecond", rawRowsPerSecond);
    }
    if (!o.noPostgres) {
      DocsPostgresSteps.run(g, o, hot, table);
    }
    System.out.println(table.render());
    String comparisons = DocsBenchReport.comparisons(table, raw, o.rawCells, meanBytes, json);
    System.out.println(comparisons);
    json.put(
        "options",
        Map.of(
            "documents",
            o.documents,
            "pageBytes",
            o.pageBytes,
            "commentBytes",
            o.commentBytes,
            "clients",
            o.clients,
            "edits",
            o.edits,
            "rawRows",
            o.rawRows,
            "rawCells",
            o.rawCells,
            "rounds",
            o.rounds));
    json.put("table", table.toJson());
    return json;
  }

  /**
   * The raw write ceiling and the bulk load alternate, each into fresh tables, and their medians
   * are compared: on a shared machine both move with the load, and alternating keeps them together.
   * Round 0 warms both up (JIT, connections, region server paths) and is not counted: the first
   * load ran at half the rate of later ones. Gives the store of the last round.
   */
  private DocsService loadRounds(
      SystemContext docsContext,
      SystemContext tool,
      SchemaManager schemas,
      DocsBenchCorpus g,
      BenchTable table,
      List<Double> rawRowsPerSecond)
      throws Exception {
    long meanBytes = g.meanBytes();
    List<double[]> loads = new ArrayList<>(); // seconds, documents stored, failed
    DocsService docs = null;
    for (int round = 0; round <= o.rounds; round++) {
      String name = round == 0 ? "warm-up (not counted)" : "round " + round;
      if (o.rawRows > 0) {
        double rate =
            RawBenchmark.writeRate(tool.connection(), o.rawRows, (int) meanBytes, o.rawCells);
        System.out.printf(
            Locale.ROOT,
            "%s: raw write %,.0f rows/s = %.1f MB/s%n",
            name,
            rate,
            rate * meanBytes / 1e6);
        if (round > 0) {
          rawRowsPerSecond.add(rate);
        }
      }
      schemas.dropNamespace(NAMESPACE);
      docs = new DocsService(docsContext); // creates the namespace's tables again
      double[] load = DocsCasebookSteps.bulkLoad(docs, g);
      System.out.printf(
          Locale.ROOT,
          "%s: bulk load %.2f s = %.1f MB/s%n",
          name,
          load[0],
          g.documentBytes() / load[0] / 1e6);
      if (round > 0) {
        loads.add(load);
      }
    }
    loads.sort(Comparator.comparingDouble(l -> l[0]));
    double[] median = loads.get((loads.size() - 1) / 2);
    table.add(
        "Casebook: _bulk load",
        (long) median[1],
        "docs",
        median[0],
        null,
        String.format(
            Locale.ROOT,
            "%.1f MB/s of documents (median of %d, %.1f-%.1f); %d failed",
            g.documentBytes() / median[0] / 1e6,
            loads.size(),
            g.documentBytes() / loads.get(loads.size() - 1)[0] / 1e6,
            g.documentBytes() / loads.get(0)[0] / 1e6,
            (long) median[2]));
    return docs;
  }
}
