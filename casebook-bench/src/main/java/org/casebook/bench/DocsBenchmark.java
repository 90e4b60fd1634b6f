package org.casebook.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.casebook.core.InvalidInputException;
import org.casebook.core.Json;
import org.casebook.core.PreconditionFailedException;
import org.casebook.core.SystemContext;
import org.casebook.core.Threads;
import org.casebook.core.cli.Progress;
import org.casebook.core.page.PageRequest;
import org.casebook.core.schema.SchemaManager;
import org.casebook.core.schema.TableSpec;
import org.casebook.docs.BulkSummary;
import org.casebook.docs.CommentOrder;
import org.casebook.docs.DocsService;
import org.casebook.docs.Document;
import org.casebook.docs.gen.DocGenerator;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyManager;
import picocli.CommandLine.Option;

/**
 * {@code bench docs}: bulk load of generated crawled pages with their comments, single-document
 * reads, a blog with 100 comments, and 8 clients editing the same documents over the version they
 * read (each edit appends a token to the page's corrections) — on Casebook and on PostgreSQL 16
 * (JSONB, optimistic UPDATE … WHERE version = ?) with the same documents in the same run, plus the
 * raw BufferedMutator ceiling at the same value size.
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

  private final SystemContext context;
  private final Options o;

  DocsBenchmark(SystemContext context, Options options) {
    this.context = context;
    this.o = options;
    options.validate();
  }

  /** What was generated: the file, its document bytes, and the ids the reads sample from. */
  private record Generated(
      Path file, long documents, long documentBytes, List<String> pageIds, String bigBlog) {}

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
    Generated g = generate();
    long meanBytes = g.documentBytes() / g.documents();
    table.add(
        "generate NDJSON (zh + en, heavy-tailed comments)",
        g.documents(),
        "docs",
        (System.nanoTime() - t0) / 1e9,
        null,
        String.format(Locale.ROOT, "%,d MB, mean %d B", g.documentBytes() >> 20, meanBytes));

    // Raw write ceiling and bulk load alternate, each into fresh tables, and their medians are
    // compared: on a shared machine both move with the load, and alternating keeps them together.
    // Round 0 warms both up (JIT, connections, region server paths) and is not counted: the first
    // load ran at half the rate of later ones.
    SchemaManager schemas = new SchemaManager(context.connection());
    List<TableSpec> specs = DocsService.schemas(NAMESPACE);
    List<Double> rawCellsPerSecond = new ArrayList<>();
    List<double[]> loads = new ArrayList<>(); // seconds, documents stored, failed
    DocsService docs = null;
    try {
      for (int round = 0; round <= o.rounds; round++) {
        String name = round == 0 ? "warm-up (not counted)" : "round " + round;
        if (o.rawRows > 0) {
          double rate =
              RawBenchmark.writeRate(context.connection(), o.rawRows, (int) meanBytes, o.rawCells);
          System.out.printf(
              Locale.ROOT,
              "%s: raw write %,.0f rows/s = %.1f MB/s%n",
              name,
              rate,
              rate * meanBytes / 1e6);
          if (round > 0) {
            rawCellsPerSecond.add(rate);
          }
        }
        specs.forEach(spec -> schemas.drop(spec.name()));
        schemas.ensureAll(specs);
        docs = new DocsService(context, NAMESPACE);
        double[] load = bulkLoad(docs, g);
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
      loads.sort(java.util.Comparator.comparingDouble(l -> l[0]));
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
      reads(docs, g, table);
    } finally {
      specs.forEach(spec -> schemas.drop(spec.name()));
    }
    Double raw = null;
    if (!rawCellsPerSecond.isEmpty()) {
      List<Double> sorted = rawCellsPerSecond.stream().sorted().toList();
      raw = sorted.get((sorted.size() - 1) / 2);
      table.add(
          o.rawCells == 1
              ? "raw BufferedMutator write, one cell a row"
              : "raw BufferedMutator write, " + o.rawCells + " cells a row",
          o.rawRows,
          "rows",
          o.rawRows / raw,
          null,
          String.format(
              Locale.ROOT,
              "%.1f MB/s at %d B (median of %d, %.1f-%.1f)",
              raw * meanBytes / 1e6,
              meanBytes,
              sorted.size(),
              sorted.get(0) * meanBytes / 1e6,
              sorted.get(sorted.size() - 1) * meanBytes / 1e6));
      json.put("rawCellsPerSecond", rawCellsPerSecond);
    }
    if (!o.noPostgres) {
      postgres(g, table);
    }
    System.out.println(table.render());
    String comparisons = comparisons(table, raw, o.rawCells, meanBytes, json);
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

  private Generated generate() throws IOException {
    Path file = o.work.resolve("docs.ndjson");
    DocGenerator gen =
        new DocGenerator(
            7, Instant.parse("2026-09-01T00:00:00Z"), 7, o.pageBytes, 500, o.commentBytes);
    List<String> pageIds = new ArrayList<>();
    long documents = 0;
    long bytes = 0;
    String bigBlog;
    try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
        Progress p = Progress.start("generate", o.documents, "docs")) {
      List<DocGenerator.Generated> blog = gen.blogWithComments(100);
      bigBlog = blog.get(0).id();
      List<DocGenerator.Generated> batch = new ArrayList<>(blog);
      while (documents < o.documents) {
        for (DocGenerator.Generated d : batch) {
          String lines = d.bulkLines();
          out.write(lines);
          // UTF-8 bytes of the document line (Chinese text is 3 bytes a character).
          bytes +=
              lines.substring(lines.indexOf('\n') + 1).getBytes(StandardCharsets.UTF_8).length - 1;
          documents++;
          if (d.parentType() == null && pageIds.size() < 50_000) {
            pageIds.add(d.type() + "\u0000" + d.id());
          }
        }
        p.advance(batch.size());
        batch = gen.next();
      }
    }
    return new Generated(file, documents, bytes, pageIds, bigBlog);
  }

  /** Bulk-loads the generated file: seconds, documents stored, documents failed. */
  private static double[] bulkLoad(DocsService docs, Generated g) throws IOException {
    long t0 = System.nanoTime();
    BulkSummary summary;
    try (InputStream lines = Files.newInputStream(g.file());
        Progress p = Progress.start("bulk", g.documents(), "docs")) {
      summary = docs.bulk(lines, item -> p.advance(1));
    }
    double secs = (System.nanoTime() - t0) / 1e9;
    return new double[] {secs, summary.actions() - summary.failed(), summary.failed()};
  }

  private void reads(DocsService docs, Generated g, BenchTable table) throws Exception {

    SplittableRandom rnd = new SplittableRandom(3);
    for (int i = 0; i < 300; i++) { // warm-up, not reported
      String[] k = g.pageIds().get(rnd.nextInt(g.pageIds().size())).split("\u0000", 2);
      docs.get(k[0], k[1]);
    }
    Latency read = new Latency();
    for (int i = 0; i < o.samples; i++) {
      String[] k = g.pageIds().get(rnd.nextInt(g.pageIds().size())).split("\u0000", 2);
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

    List<String> hot = g.pageIds().subList(0, HOT_DOCS);
    EditFigures f =
        edits(
            hot,
            (key, token) -> {
              String[] k = key.split("\u0000", 2);
              while (true) {
                Document d = docs.get(k[0], k[1]);
                ObjectNode patch = Json.mapper().createObjectNode();
                Object old = d.fields().get("corrections");
                patch.put("corrections", (old == null ? "" : old + " ") + token);
                try {
                  docs.patch(k[0], k[1], patch, OptionalLong.of(d.version()));
                  return;
                } catch (PreconditionFailedException conflict) {
                  EDIT_CONFLICTS.get().incrementAndGet();
                }
              }
            },
            key -> {
              String[] k = key.split("\u0000", 2);
              return tokens(docs.get(k[0], k[1]).fields().get("corrections"));
            });
    table.add(
        "Casebook: concurrent edits (If-Match)",
        f.accepted(),
        "edits",
        f.seconds(),
        f.latency(),
        f.note());
  }

  /** Per-benchmark-side conflict counter (each side runs its editors once). */
  private static final ThreadLocal<AtomicLong> EDIT_CONFLICTS = new ThreadLocal<>();

  @FunctionalInterface
  private interface Edit {
    void apply(String key, String token) throws Exception;
  }

  @FunctionalInterface
  private interface Tags {
    Set<String> of(String key) throws Exception;
  }

  private record EditFigures(
      long accepted, long conflicts, long lost, double seconds, Latency latency) {
    String note() {
      return String.format(Locale.ROOT, "%d conflicts detected, %d lost updates", conflicts, lost);
    }
  }

  /** The configured number of editors, each making its accepted edits on the hot documents. */
  private EditFigures edits(List<String> hot, Edit edit, Tags tags) throws Exception {
    Map<String, Set<String>> accepted = new ConcurrentHashMap<>();
    hot.forEach(k -> accepted.put(k, ConcurrentHashMap.newKeySet()));
    AtomicLong conflicts = new AtomicLong();
    Latency latency = new Latency();
    ExecutorService pool = Executors.newFixedThreadPool(o.clients, Threads.daemon("docs-editor"));
    long t0 = System.nanoTime();
    try {
      List<Future<Latency>> futures = new ArrayList<>();
      for (int c = 0; c < o.clients; c++) {
        int client = c;
        futures.add(
            pool.submit(
                () -> {
                  EDIT_CONFLICTS.set(conflicts);
                  Latency mine = new Latency();
                  SplittableRandom r = new SplittableRandom(client);
                  for (int i = 0; i < o.edits; i++) {
                    String key = hot.get(r.nextInt(hot.size()));
                    String token = "e" + client + "-" + i;
                    long s = System.nanoTime();
                    edit.apply(key, token);
                    mine.recordNanos(System.nanoTime() - s);
                    accepted.get(key).add(token);
                  }
                  return mine;
                }));
      }
      for (Future<Latency> f : futures) {
        latency.add(f.get());
      }
    } finally {
      pool.shutdown();
    }
    double secs = (System.nanoTime() - t0) / 1e9;
    long lost = 0;
    long total = 0;
    for (String k : hot) {
      Set<String> stored = tags.of(k);
      for (String token : accepted.get(k)) {
        total++;
        if (!stored.contains(token)) {
          lost++;
        }
      }
    }
    return new EditFigures(total, conflicts.get(), lost, secs, latency);
  }

  private void postgres(Generated g, BenchTable table) throws Exception {
    try (EmbeddedPostgres pg = EmbeddedPostgres.start(o.work.toAbsolutePath(), "512MB");
        java.sql.Connection c = pg.connect()) {
      try (Statement st = c.createStatement()) {
        st.execute(
            "CREATE TABLE docs (type text NOT NULL, id text NOT NULL, parent_type text,"
                + " parent_id text, created timestamptz, version bigint NOT NULL DEFAULT 1,"
                + " body jsonb NOT NULL, PRIMARY KEY (type, id))");
      }
      long t0 = System.nanoTime();
      long rows = copy(c, g.file());
      try (Statement st = c.createStatement()) {
        st.execute("CREATE INDEX docs_parent ON docs (parent_type, parent_id, created)");
        st.execute("ANALYZE docs");
      }
      double secs = (System.nanoTime() - t0) / 1e9;
      table.add(
          "PostgreSQL: COPY + index + ANALYZE",
          rows,
          "docs",
          secs,
          null,
          String.format(Locale.ROOT, "%.1f MB/s of documents", g.documentBytes() / secs / 1e6));

      SplittableRandom rnd = new SplittableRandom(3);
      Latency read = new Latency();
      try (PreparedStatement ps =
          c.prepareStatement("SELECT version, body FROM docs WHERE type = ? AND id = ?")) {
        for (int i = 0; i < 300 + o.samples; i++) {
          String[] k = g.pageIds().get(rnd.nextInt(g.pageIds().size())).split("\u0000", 2);
          ps.setString(1, k[0]);
          ps.setString(2, k[1]);
          long s = System.nanoTime();
          EmbeddedPostgres.drain(ps);
          if (i >= 300) {
            read.recordNanos(System.nanoTime() - s);
          }
        }
      }
      table.add("PostgreSQL: read one document", read.count(), "reads", 0, read, "primary key");

      Latency thread = new Latency();
      try (PreparedStatement parent =
              c.prepareStatement("SELECT version, body FROM docs WHERE type = 'blog' AND id = ?");
          PreparedStatement comments =
              c.prepareStatement(
                  "SELECT id, version, body FROM docs WHERE parent_type = 'blog' AND parent_id = ?"
                      + " ORDER BY created, id LIMIT 100")) {
        for (int i = 0; i < Math.max(50, o.samples / 10); i++) {
          parent.setString(1, g.bigBlog());
          comments.setString(1, g.bigBlog());
          long s = System.nanoTime();
          EmbeddedPostgres.drain(parent);
          EmbeddedPostgres.drain(comments);
          thread.recordNanos(System.nanoTime() - s);
        }
      }
      table.add(
          "PostgreSQL: a blog with its 100 comments",
          thread.count(),
          "reads",
          0,
          thread,
          "PK + index (parent, created)");

      List<String> hot = g.pageIds().subList(0, HOT_DOCS);
      // One connection per editor thread, as each editor would have its own.
      Map<Thread, java.sql.Connection> connections = new ConcurrentHashMap<>();
      try {
        EditFigures f =
            edits(
                hot,
                (key, token) -> {
                  java.sql.Connection mine = connections.get(Thread.currentThread());
                  if (mine == null) {
                    mine = pg.connect();
                    connections.put(Thread.currentThread(), mine);
                  }
                  pgEdit(mine, key, token);
                },
                key -> pgTags(c, key));
        table.add(
            "PostgreSQL: concurrent edits (version check)",
            f.accepted(),
            "edits",
            f.seconds(),
            f.latency(),
            f.note());
      } finally {
        for (java.sql.Connection oc : connections.values()) {
          oc.close();
        }
      }
    }
  }

  /** Read, add the tag, UPDATE … WHERE version = read version; 0 rows is a detected conflict. */
  private static void pgEdit(java.sql.Connection c, String key, String token) throws Exception {
    String[] k = key.split("\u0000", 2);
    try (PreparedStatement read =
            c.prepareStatement("SELECT version, body FROM docs WHERE type = ? AND id = ?");
        PreparedStatement write =
            c.prepareStatement(
                "UPDATE docs SET body = ?::jsonb, version = version + 1"
                    + " WHERE type = ? AND id = ? AND version = ?")) {
      while (true) {
        read.setString(1, k[0]);
        read.setString(2, k[1]);
        long version;
        ObjectNode body;
        try (ResultSet rs = read.executeQuery()) {
          rs.next();
          version = rs.getLong(1);
          body = (ObjectNode) Json.mapper().readTree(rs.getString(2));
        }
        JsonNode old = body.get("corrections");
        body.put("corrections", (old == null ? "" : old.asText() + " ") + token);
        write.setString(1, Json.write(body));
        write.setString(2, k[0]);
        write.setString(3, k[1]);
        write.setLong(4, version);
        if (write.executeUpdate() == 1) {
          return;
        }
        EDIT_CONFLICTS.get().incrementAndGet();
      }
    }
  }

  private static Set<String> pgTags(java.sql.Connection c, String key) throws Exception {
    String[] k = key.split("\u0000", 2);
    try (PreparedStatement ps =
        c.prepareStatement("SELECT body->>'corrections' FROM docs WHERE type = ? AND id = ?")) {
      ps.setString(1, k[0]);
      ps.setString(2, k[1]);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? tokens(rs.getString(1)) : Set.of();
      }
    }
  }

  /** The edit tokens in a corrections text (each accepted edit appends one). */
  private static Set<String> tokens(Object corrections) {
    Set<String> out = new HashSet<>();
    if (corrections != null) {
      for (String t : corrections.toString().split(" ", -1)) {
        if (!t.isEmpty()) {
          out.add(t);
        }
      }
    }
    return out;
  }

  /** The same documents (same ids; comments with the same composite id) by COPY in CSV. */
  private static long copy(java.sql.Connection c, Path file) throws IOException, SQLException {
    CopyManager copy = c.unwrap(PGConnection.class).getCopyAPI();
    StringBuilder chunk = new StringBuilder(1 << 20);
    long rows = 0;
    try (Stream<String> lines = Files.lines(file, StandardCharsets.UTF_8)) {
      Iterator<String> it = lines.iterator();
      while (it.hasNext()) {
        JsonNode target = Json.mapper().readTree(it.next()).get("index");
        String doc = it.next();
        JsonNode fields = Json.mapper().readTree(doc);
        String type = target.get("_index").asText();
        String id = target.get("_id").asText();
        JsonNode parent = target.get("parent");
        String created = fields.path("created").asText("");
        if (parent != null) {
          id =
              id
                  + ":"
                  + Instant.parse(created).toEpochMilli()
                  + ":"
                  + parent.get("type").asText()
                  + ":"
                  + parent.get("id").asText();
        }
        chunk
            .append(EmbeddedPostgres.csv(type))
            .append(',')
            .append(EmbeddedPostgres.csv(id))
            .append(',')
            .append(parent == null ? "" : EmbeddedPostgres.csv(parent.get("type").asText()))
            .append(',')
            .append(parent == null ? "" : EmbeddedPostgres.csv(parent.get("id").asText()))
            .append(',')
            .append(created)
            .append(",1,")
            .append(EmbeddedPostgres.csv(doc))
            .append('\n');
        rows++;
        if (chunk.length() > (1 << 20)) {
          copy.copyIn(
              "COPY docs (type, id, parent_type, parent_id, created, version, body)"
                  + " FROM STDIN WITH (FORMAT csv)",
              new StringReader(chunk.toString()));
          chunk.setLength(0);
        }
      }
    }
    if (chunk.length() > 0) {
      copy.copyIn(
          "COPY docs (type, id, parent_type, parent_id, created, version, body)"
              + " FROM STDIN WITH (FORMAT csv)",
          new StringReader(chunk.toString()));
    }
    return rows;
  }

  private static String comparisons(
      BenchTable table,
      Double rawCellsPerSecond,
      int rawCells,
      long meanBytes,
      Map<String, Object> json) {
    Map<String, BenchTable.Row> rows = new LinkedHashMap<>();
    table.rows().forEach(r -> rows.put(r.step(), r));
    StringBuilder sb = new StringBuilder("comparisons:\n");
    Map<String, Object> r = new LinkedHashMap<>();
    BenchTable.Row load = rows.get("Casebook: _bulk load");
    if (rawCellsPerSecond != null && load != null) {
      String cells = rawCells == 1 ? "" : ", " + rawCells + " cells a row";
      double rawBytes = rawCellsPerSecond * meanBytes;
      double loadBytes = load.rate() * meanBytes;
      double ratio = loadBytes / rawBytes;
      sb.append(
          String.format(
              Locale.ROOT,
              "  bulk load %.1f MB/s = %.2fx the raw BufferedMutator byte rate (%.1f MB/s, %d B"
                  + " values%s);%s%n",
              loadBytes / 1e6,
              ratio,
              rawBytes / 1e6,
              meanBytes,
              cells,
              rawCells == 1 ? " target >= 0.8x" : " the issue's target is against one cell"));
      r.put("bulkVsRawBytes", ratio);
    }
    BenchTable.Row read = rows.get("Casebook: read one document");
    if (read != null) {
      sb.append(
          String.format(
              Locale.ROOT,
              "  single read p99 %.2f ms (target <= 5 ms)%n",
              read.latency().millis(99)));
      r.put("readP99Ms", read.latency().millis(99));
    }
    for (String what : List.of("read one document", "a blog with its 100 comments")) {
      BenchTable.Row hb = rows.get("Casebook: " + what);
      BenchTable.Row pg = rows.get("PostgreSQL: " + what);
      if (hb != null && pg != null) {
        sb.append(
            String.format(
                Locale.ROOT,
                "  %s: Casebook p50 %.2f / p99 %.2f ms, PostgreSQL p50 %.2f / p99 %.2f ms%n",
                what,
                hb.latency().millis(50),
                hb.latency().millis(99),
                pg.latency().millis(50),
                pg.latency().millis(99)));
      }
    }
    json.put("comparisons", r);
    return sb.toString();
  }
}
