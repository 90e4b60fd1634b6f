package org.casebook.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.casebook.core.Json;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyManager;

/**
 * {@code bench docs}' steps on PostgreSQL 16 with the same documents: one {@code docs} table
 * ({@code body jsonb}, primary key {@code (type, id)}, index {@code (parent_type, parent_id,
 * created)}) loaded by COPY, the same reads, and the editors as {@code UPDATE … WHERE version = ?}.
 */
final class DocsPostgresSteps {
  private static final String COPY =
      "COPY docs (type, id, parent_type, parent_id, created, version, body)"
          + " FROM STDIN WITH (FORMAT csv)";

  private DocsPostgresSteps() {}

  static void run(DocsBenchCorpus g, DocsBenchmark.Options o, List<String> hot, BenchTable table)
      throws Exception {
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
          String[] k = DocsBenchCorpus.key(g.pageIds().get(rnd.nextInt(g.pageIds().size())));
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

      // One connection per editor thread, as each editor would have its own.
      Map<Thread, java.sql.Connection> connections = new ConcurrentHashMap<>();
      try {
        DocsEditors.Figures f =
            DocsEditors.run(
                o.clients,
                o.edits,
                hot,
                (key, token) -> {
                  java.sql.Connection mine = connections.get(Thread.currentThread());
                  if (mine == null) {
                    mine = pg.connect();
                    connections.put(Thread.currentThread(), mine);
                  }
                  edit(mine, key, token);
                },
                key -> tags(c, key));
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
  private static void edit(java.sql.Connection c, String key, String token) throws Exception {
    String[] k = DocsBenchCorpus.key(key);
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
        DocsEditors.conflict();
      }
    }
  }

  private static Set<String> tags(java.sql.Connection c, String key) throws Exception {
    String[] k = DocsBenchCorpus.key(key);
    try (PreparedStatement ps =
        c.prepareStatement("SELECT body->>'corrections' FROM docs WHERE type = ? AND id = ?")) {
      ps.setString(1, k[0]);
      ps.setString(2, k[1]);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? DocsEditors.tokens(rs.getString(1)) : Set.of();
      }
    }
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
          copy.copyIn(COPY, new StringReader(chunk.toString()));
          chunk.setLength(0);
        }
      }
    }
    if (chunk.length() > 0) {
      copy.copyIn(COPY, new StringReader(chunk.toString()));
    }
    return rows;
  }
}
