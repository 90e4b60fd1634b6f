package org.casebook.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.ColumnPaginationFilter;
import org.apache.hadoop.hbase.util.Bytes;
import org.casebook.core.InvalidInputException;
import org.casebook.core.key.KeyBuilder;
import org.casebook.core.key.KeyRange;
import org.casebook.core.key.KeyReader;
import org.casebook.core.schema.FamilySpec;
import org.casebook.core.schema.SchemaManager;
import org.casebook.core.schema.SplitPoints;
import org.casebook.core.schema.TableSpec;
import picocli.CommandLine.Option;

/**
 * The inbox layouts of seed 003 compared on the same entries: the seed's one row per user with one
 * column per followee and up to 1,000 cell versions; one wide row per user with a column per entry
 * ({@code MAX-postId | author}); and one tall row per entry ({@code uid | MAX-postId | author}).
 * For each: build, newest 20, the next 20, and removing one followee's entries (unfollow).
 */
final class InboxLayoutBenchmark {
  static final String NAMESPACE = "casebook_bench_inbox";
  private static final byte[] F = Bytes.toBytes("i");
  private static final byte[] Q = Bytes.toBytes("a");
  private static final int PAGE = 20;

  /** Sizes. */
  static final class Options {
    @Option(
        paramLabel = "N",
        names = "--inboxes",
        defaultValue = "200",
        description = "Inboxes (users) (default ${DEFAULT-VALUE}).")
    int inboxes;

    @Option(
        paramLabel = "N",
        names = "--entries",
        defaultValue = "1000",
        description = "Entries per inbox (default ${DEFAULT-VALUE}).")
    int entries;

    @Option(
        paramLabel = "N",
        names = "--authors",
        defaultValue = "50",
        description = "Followees per inbox (default ${DEFAULT-VALUE}).")
    int authors;

    @Option(
        paramLabel = "N",
        names = "--reads",
        defaultValue = "2000",
        description = "Timed reads per layout (default ${DEFAULT-VALUE}).")
    int reads;

    void validate() {
      InvalidInputException.check(inboxes >= 10, "inboxes", "--inboxes must be at least 10");
      InvalidInputException.check(
          entries >= 2 * PAGE && entries <= 100_000, "entries", "--entries must be 40..100000");
      InvalidInputException.check(
          authors >= 1 && authors <= entries, "authors", "--authors must be 1..entries");
      InvalidInputException.check(reads >= 10, "reads", "--reads must be at least 10");
    }
  }

  /** One layout: how to write an entry, read a page, and remove an author. */
  private interface Layout {
    String name();

    TableName table();

    FamilySpec family();

    Put put(String owner, long postId, String author);

    /** Post ids of the page after {@code afterPostId} (or the first page), newest first. */
    List<Long> page(Table t, String owner, long afterPostId, String afterAuthor) throws IOException;

    void removeAuthor(Table t, String owner, String author, List<Long> postIds) throws IOException;
  }

  private final Connection connection;
  private final Options o;

  InboxLayoutBenchmark(Connection connection, Options options) {
    this.connection = connection;
    this.o = options;
    options.validate();
  }

  Map<String, Object> run() {
    List<Layout> layouts = List.of(new Versions(), new Wide(), new Tall());
    SchemaManager schemas = new SchemaManager(connection);
    BenchTable table =
        new BenchTable(
            "bench weibo-inbox: "
                + o.inboxes
                + " inboxes x "
                + o.entries
                + " entries from "
                + o.authors
                + " followees");
    Map<String, List<Long>> firstPages = new LinkedHashMap<>();
    try {
      for (Layout l : layouts) {
        schemas.drop(l.table());
        schemas.ensure(new TableSpec(l.table(), List.of(l.family()), SplitPoints.none(), l.name()));
        long t0 = System.nanoTime();
        try (BufferedMutator m = connection.getBufferedMutator(l.table())) {
          for (int u = 0; u < o.inboxes; u++) {
            for (int e = 0; e < o.entries; e++) {
              m.mutate(l.put(owner(u), postId(e), author(e)));
            }
          }
        }
        long cells = (long) o.inboxes * o.entries;
        table.add(
            l.name() + ": write entries", cells, "cells", (System.nanoTime() - t0) / 1e9, null, "");
        try (Admin admin = connection.getAdmin()) {
          admin.flush(l.table());
        }
        try (Table t = connection.getTable(l.table())) {
          firstPages.put(l.name(), l.page(t, owner(0), -1, null));
          SplittableRandom rnd = new SplittableRandom(5);
          Latency first = new Latency();
          Latency second = new Latency();
          for (int i = 0; i < o.reads; i++) {
            String owner = owner(rnd.nextInt(o.inboxes));
            long s = System.nanoTime();
            List<Long> page = l.page(t, owner, -1, null);
            first.recordNanos(System.nanoTime() - s);
            long last = page.get(page.size() - 1);
            s = System.nanoTime();
            l.page(t, owner, last, authorOf(last));
            second.recordNanos(System.nanoTime() - s);
          }
          table.add(l.name() + ": newest 20", first.count(), "reads", 0, first, "");
          table.add(l.name() + ": next 20 (cursor)", second.count(), "reads", 0, second, "");
          Latency remove = new Latency();
          for (int u = 0; u < o.inboxes; u++) {
            String author = author(u % o.authors);
            List<Long> ids = new ArrayList<>();
            for (int e = u % o.authors; e < o.entries; e += o.authors) {
              ids.add(postId(e));
            }
            long s = System.nanoTime();
            l.removeAuthor(t, owner(u), author, ids);
            remove.recordNanos(System.nanoTime() - s);
          }
          table.add(
              l.name() + ": remove a followee",
              remove.count(),
              "ops",
              0,
              remove,
              (o.entries / o.authors) + " entries each");
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("inbox benchmark failed: " + e.getMessage(), e);
    } finally {
      layouts.forEach(l -> schemas.drop(l.table()));
      schemas.dropNamespace(NAMESPACE);
    }
    List<Long> reference = firstPages.get("tall");
    firstPages.forEach(
        (name, page) -> {
          if (!page.equals(reference)) {
            throw new IllegalStateException(
                "layout " + name + " returned another first page: " + page + " vs " + reference);
          }
        });
    System.out.println();
    System.out.print(table.render());
    Map<String, Object> json = new LinkedHashMap<>();
    json.put(
        "options",
        Map.of("inboxes", o.inboxes, "entries", o.entries, "authors", o.authors, "reads", o.reads));
    json.put("results", table.toJson());
    return json;
  }

  private static String owner(int u) {
    return "owner" + u;
  }

  /** Entry e of every inbox: post ids grow with e; authors take turns. */
  private static long postId(int e) {
    return 1_000_000L + e;
  }

  private String author(int e) {
    return "author" + (e % o.authors);
  }

  private String authorOf(long postId) {
    return author((int) (postId - 1_000_000L));
  }

  /** The seed: row = owner, column = followee, one cell version per post (timestamp = post id). */
  private static final class Versions implements Layout {
    @Override
    public String name() {
      return "versions";
    }

    @Override
    public TableName table() {
      return TableName.valueOf(NAMESPACE, "versions");
    }

    @Override
    public FamilySpec family() {
      return FamilySpec.of("i").withMaxVersions(1000);
    }

    @Override
    public Put put(String owner, long postId, String author) {
      return new Put(Bytes.toBytes(owner))
          .addColumn(F, Bytes.toBytes(author), postId, Bytes.toBytes(postId));
    }

    @Override
    public List<Long> page(Table t, String owner, long afterPostId, String afterAuthor)
        throws IOException {
      // The newest 20 overall are among the newest 20 of each column: read 20 versions per column
      // (older than the cursor's post for the next page) and merge. Fairer than the seed, which
      // reads all.
      Get get = new Get(Bytes.toBytes(owner)).readVersions(PAGE);
      if (afterPostId >= 0) {
        get.setTimeRange(0, afterPostId);
      }
      Result r = t.get(get);
      List<Long> ids = new ArrayList<>();
      for (Cell c : r.rawCells()) {
        ids.add(c.getTimestamp());
      }
      ids.sort(Comparator.reverseOrder());
      return List.copyOf(ids.subList(0, Math.min(PAGE, ids.size())));
    }

    @Override
    public void removeAuthor(Table t, String owner, String author, List<Long> postIds)
        throws IOException {
      t.delete(new Delete(Bytes.toBytes(owner)).addColumns(F, Bytes.toBytes(author)));
    }
  }

  /**
   * One wide row per owner; qualifier {@code MAX-postId | author}; newest first by qualifier order.
   */
  private static final class Wide implements Layout {
    @Override
    public String name() {
      return "wide";
    }

    @Override
    public TableName table() {
      return TableName.valueOf(NAMESPACE, "wide");
    }

    @Override
    public FamilySpec family() {
      return FamilySpec.of("i");
    }

    private byte[] qualifier(long postId, String author) {
      return KeyBuilder.create().addReverseTimestamp(postId).addString(author).build();
    }

    @Override
    public Put put(String owner, long postId, String author) {
      return new Put(Bytes.toBytes(owner)).addColumn(F, qualifier(postId, author), new byte[0]);
    }

    @Override
    public List<Long> page(Table t, String owner, long afterPostId, String afterAuthor)
        throws IOException {
      ColumnPaginationFilter filter =
          afterPostId < 0
              ? new ColumnPaginationFilter(PAGE, 0)
              : new ColumnPaginationFilter(
                  PAGE, KeyRange.successorOf(qualifier(afterPostId, afterAuthor)));
      Result r = t.get(new Get(Bytes.toBytes(owner)).setFilter(filter));
      List<Long> ids = new ArrayList<>();
      for (Cell c : r.rawCells()) {
        ids.add(new KeyReader(CellUtil.cloneQualifier(c)).readReverseTimestamp());
      }
      return ids;
    }

    @Override
    public void removeAuthor(Table t, String owner, String author, List<Long> postIds)
        throws IOException {
      Delete d = new Delete(Bytes.toBytes(owner));
      for (long id : postIds) {
        d.addColumns(F, qualifier(id, author));
      }
      t.delete(d);
    }
  }

  /** One row per entry: {@code owner | MAX-postId | author} (the layout Casebook uses). */
  private static final class Tall implements Layout {
    @Override
    public String name() {
      return "tall";
    }

    @Override
    public TableName table() {
      return TableName.valueOf(NAMESPACE, "tall");
    }

    @Override
    public FamilySpec family() {
      return FamilySpec.of("i");
    }

    private byte[] row(String owner, long postId, String author) {
      return KeyBuilder.create()
          .addString(owner)
          .addReverseTimestamp(postId)
          .addString(author)
          .build();
    }

    @Override
    public Put put(String owner, long postId, String author) {
      return new Put(row(owner, postId, author)).addColumn(F, Q, new byte[0]);
    }

    @Override
    public List<Long> page(Table t, String owner, long afterPostId, String afterAuthor)
        throws IOException {
      Scan scan =
          KeyRange.prefix(KeyBuilder.create().addString(owner).build())
              .toScan()
              .setLimit(PAGE)
              .setCaching(PAGE);
      if (afterPostId >= 0) {
        scan.withStartRow(row(owner, afterPostId, afterAuthor), false);
      }
      List<Long> ids = new ArrayList<>();
      try (ResultScanner s = t.getScanner(scan)) {
        for (Result r : s) {
          KeyReader k = new KeyReader(r.getRow());
          k.skipBytes();
          ids.add(k.readReverseTimestamp());
        }
      }
      return ids;
    }

    @Override
    public void removeAuthor(Table t, String owner, String author, List<Long> postIds)
        throws IOException {
      List<Delete> ds = new ArrayList<>(postIds.size());
      for (long id : postIds) {
        ds.add(new Delete(row(owner, id, author)));
      }
      t.delete(ds);
    }
  }
}
