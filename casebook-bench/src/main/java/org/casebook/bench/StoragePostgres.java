package org.casebook.bench;

import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.Statement;

/**
 * {@code bench storage}'s PostgreSQL side: trails' records loaded as {@code bench trails} loads
 * them ({@link TrailsPostgres}: the log's cleaned records by COPY, then its two indexes and
 * ANALYZE) into a PostgreSQL 16 started for the run, and the bytes its table and indexes take.
 */
final class StoragePostgres {
  /**
   * PostgreSQL's bytes for the records: {@code heapBytes} is {@code pg_table_size} (the heap with
   * its TOAST table, free space and visibility maps), {@code indexBytes} {@code pg_indexes_size},
   * {@code totalBytes} {@code pg_total_relation_size} (the two together).
   */
  record Sizes(long rows, long heapBytes, long indexBytes, long totalBytes, double loadSeconds) {
    double perRow(long bytes) {
      return (double) bytes / rows;
    }
  }

  private StoragePostgres() {}

  /** Loads {@code log}'s records; PostgreSQL's binaries are unpacked under {@code work}, once. */
  static Sizes measure(Path work, Path log) throws Exception {
    long t0 = System.nanoTime();
    try (EmbeddedPostgres pg = EmbeddedPostgres.start(work, "128MB");
        java.sql.Connection c = pg.connect()) {
      TrailsPostgres.createTable(c);
      long rows = TrailsPostgres.copy(c, log);
      TrailsPostgres.index(c);
      double seconds = (System.nanoTime() - t0) / 1e9;
      try (Statement st = c.createStatement();
          ResultSet rs =
              st.executeQuery(
                  "SELECT pg_table_size('events'), pg_indexes_size('events'),"
                      + " pg_total_relation_size('events')")) {
        rs.next();
        return new Sizes(rows, rs.getLong(1), rs.getLong(2), rs.getLong(3), seconds);
      }
    }
  }
}
