package org.casebook.archive;

import static org.casebook.archive.ArchiveSchema.BASIC;
import static org.casebook.archive.ArchiveSchema.OTHER;
import static org.casebook.archive.ArchiveSchema.RELATIONSHIP;
import static org.casebook.archive.ArchiveSchema.STATUSES;
import static org.casebook.archive.ArchiveSchema.TEXT;
import static org.casebook.archive.ArchiveSchema.U;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.BufferedMutatorParams;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.RetriesExhaustedWithDetailsException;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.casebook.core.StorageException;
import org.casebook.core.key.KeyLayout;
import org.casebook.core.key.KeyRange;

/** Every HBase read and write of the archive tables, for one namespace and layout. */
final class ArchiveStore {
  private final Connection connection;
  private final ArchiveSchema schema;

  ArchiveStore(Connection connection, ArchiveSchema schema) {
    this.connection = connection;
    this.schema = schema;
  }

  ArchiveSchema schema() {
    return schema;
  }

  Optional<Layout> layout() {
    try (Table t = connection.getTable(schema.meta())) {
      Result r = t.get(new Get(ArchiveSchema.LAYOUT_ROW));
      if (r.isEmpty()) {
        return Optional.empty();
      }
      return Optional.of(
          new Layout(
              Bytes.toInt(r.getValue(ArchiveSchema.M, ArchiveSchema.REGIONS)),
              Bytes.toBoolean(r.getValue(ArchiveSchema.M, ArchiveSchema.KEY_RULE))));
    } catch (org.apache.hadoop.hbase.TableNotFoundException e) {
      return Optional.empty();
    } catch (IOException e) {
      throw StorageException.of("read the archive layout", e);
    }
  }

  void saveLayout(Layout layout) {
    try (Table t = connection.getTable(schema.meta())) {
      t.put(
          new Put(ArchiveSchema.LAYOUT_ROW)
              .addColumn(ArchiveSchema.M, ArchiveSchema.REGIONS, Bytes.toBytes(layout.regions()))
              .addColumn(ArchiveSchema.M, ArchiveSchema.KEY_RULE, Bytes.toBytes(layout.keyRule())));
    } catch (IOException e) {
      throw StorageException.of("save the archive layout", e);
    }
  }

  /** A finished import job, kept in {@code meta} as its JSON (newest first by start time). */
  void saveImport(long startedMillis, String id, byte[] json) {
    try (Table t = connection.getTable(schema.meta())) {
      t.put(
          new Put(ArchiveKeys.IMPORT_ROW.encode(startedMillis, id))
              .addColumn(ArchiveSchema.M, IMPORT_REPORT, json));
    } catch (IOException e) {
      throw StorageException.of("record import " + id, e);
    }
  }

  private static final byte[] IMPORT_REPORT = Bytes.toBytes("import");
  private static final byte[] EXPERIMENT_RESULTS = Bytes.toBytes("experiment");

  /** A {@code bench archive} result document, kept in {@code meta} as its JSON. */
  void saveExperiment(long recordedMillis, byte[] json) {
    try (Table t = connection.getTable(schema.meta())) {
      t.put(
          new Put(ArchiveKeys.EXPERIMENT_ROW.encode(ArchiveKeys.EXPERIMENT_KIND, recordedMillis))
              .addColumn(ArchiveSchema.M, EXPERIMENT_RESULTS, json));
    } catch (IOException e) {
      throw StorageException.of("record an experiment's results", e);
    }
  }

  /** The newest {@code limit} experiment results: recorded time and JSON. */
  List<Map.Entry<Long, byte[]>> experiments(int limit) {
    KeyRange range = ArchiveKeys.EXPERIMENT_ROW.range(ArchiveKeys.EXPERIMENT_KIND);
    Scan scan =
        new Scan()
            .withStartRow(range.start())
            .withStopRow(range.stop())
            .addColumn(ArchiveSchema.M, EXPERIMENT_RESULTS)
            .setLimit(limit);
    List<Map.Entry<Long, byte[]>> out = new ArrayList<>();
    try (Table t = connection.getTable(schema.meta());
        ResultScanner scanner = t.getScanner(scan)) {
      for (Result r : scanner) {
        long at = ArchiveKeys.EXPERIMENT_ROW.decode(r.getRow()).number("recordedAt");
        out.add(Map.entry(at, r.getValue(ArchiveSchema.M, EXPERIMENT_RESULTS)));
      }
    } catch (IOException e) {
      throw StorageException.of("read experiment results", e);
    }
    return out;
  }

  /** Flushes the data tables' memstores to HFiles and waits for it. */
  void flushDataTables() throws IOException {
    try (org.apache.hadoop.hbase.client.Admin admin = connection.getAdmin()) {
      for (org.apache.hadoop.hbase.TableName t : schema.dataTables()) {
        admin.flush(t);
      }
    }
  }

  /** The cells of one user row, as the bulk load writes them too. */
  static Put userPut(Layout layout, UserRecord u) {
    Put p = new Put(layout.userRow(u.uid()));
    for (Map.Entry<String, String> f : u.profile().entrySet()) {
      p.addColumn(BASIC, Bytes.toBytes(f.getKey()), Bytes.toBytes(f.getValue()));
    }
    p.addColumn(BASIC, Bytes.toBytes("id"), Bytes.toBytes(u.uid()));
    for (String f : u.followers()) {
      p.addColumn(RELATIONSHIP, relationQualifier('F', f), new byte[0]);
    }
    for (String f : u.friends()) {
      p.addColumn(RELATIONSHIP, relationQualifier('T', f), new byte[0]);
    }
    return p;
  }

  /**
   * The status row, its id in the user row (seed 001's secondary index both ways), and the id
   * index.
   */
  static List<Put> statusPuts(Layout layout, StatusRecord s) {
    Put row =
        new Put(layout.statusRow(s.uid(), s.id()))
            .addColumn(BASIC, Bytes.toBytes("user_id"), Bytes.toBytes(s.uid()))
            .addColumn(
                BASIC, Bytes.toBytes("created_at"), Bytes.toBytes(Long.toString(s.createdAt())))
            .addColumn(BASIC, Bytes.toBytes("source"), Bytes.toBytes(s.source()))
            .addColumn(
                BASIC, Bytes.toBytes("reposts_count"), Bytes.toBytes(Long.toString(s.reposts())))
            .addColumn(
                BASIC, Bytes.toBytes("comments_count"), Bytes.toBytes(Long.toString(s.comments())))
            .addColumn(
                BASIC,
                Bytes.toBytes("attitudes_count"),
                Bytes.toBytes(Long.toString(s.attitudes())))
            .addColumn(TEXT, Bytes.toBytes("text"), Bytes.toBytes(s.text()));
    if (s.geo() != null) {
      row.addColumn(OTHER, Bytes.toBytes("geo"), Bytes.toBytes(s.geo()));
    }
    if (s.retweetedId() != null) {
      row.addColumn(OTHER, Bytes.toBytes("retweeted_id"), Bytes.toBytes(s.retweetedId()));
      if (s.retweetedUid() != null) {
        row.addColumn(OTHER, Bytes.toBytes("retweeted_uid"), Bytes.toBytes(s.retweetedUid()));
      }
    }
    Put link =
        new Put(layout.userRow(s.uid()))
            .addColumn(
                STATUSES, ArchiveKeys.STATUS_QUALIFIER.encode(Bytes.toBytes(s.id())), new byte[0]);
    Put index =
        new Put(layout.indexRow(s.id())).addColumn(U, Bytes.toBytes("uid"), Bytes.toBytes(s.uid()));
    return List.of(row, link, index);
  }

  static byte[] relationQualifier(char kind, String id) {
    return ArchiveKeys.RELATION.encode((int) kind, id);
  }

  /** Buffered writers for the put path; the first failure is raised on close. */
  final class Writers implements AutoCloseable {
    private final BufferedMutator users;
    private final BufferedMutator statuses;
    private final BufferedMutator index;
    private final List<RetriesExhaustedWithDetailsException> failures =
        new java.util.concurrent.CopyOnWriteArrayList<>();

    Writers() throws IOException {
      users = open(schema.user());
      statuses = open(schema.status());
      index = open(schema.statusIndex());
    }

    private BufferedMutator open(org.apache.hadoop.hbase.TableName t) throws IOException {
      return connection.getBufferedMutator(
          new BufferedMutatorParams(t)
              .writeBufferSize(8L << 20)
              .listener((e, m) -> failures.add(e)));
    }

    /** Returns the number of cells sent. */
    int user(Layout layout, UserRecord u) throws IOException {
      Put p = userPut(layout, u);
      users.mutate(p);
      return p.size();
    }

    /** Returns the number of cells sent. */
    int status(Layout layout, StatusRecord s) throws IOException {
      List<Put> puts = statusPuts(layout, s);
      statuses.mutate(puts.get(0));
      users.mutate(puts.get(1));
      index.mutate(puts.get(2));
      return puts.get(0).size() + puts.get(1).size() + puts.get(2).size();
    }

    /** Sends everything buffered and waits for it: the put path's "flushed" point. */
    void flush() throws IOException {
      users.flush();
      statuses.flush();
      index.flush();
      if (!failures.isEmpty()) {
        throw failures.get(0);
      }
    }

    @Override
    public void close() throws IOException {
      users.close();
      statuses.close();
      index.close();
      if (!failures.isEmpty()) {
        throw failures.get(0);
      }
    }
  }

  Writers writers() {
    try {
      return new Writers();
    } catch (IOException e) {
      throw StorageException.of("open the archive's writers", e);
    }
  }

  Optional<UserRecord> user(Layout layout, String uid, int maxRelations) {
    try (Table t = connection.getTable(schema.user())) {
      Result r = t.get(new Get(layout.userRow(uid)).addFamily(BASIC).addFamily(RELATIONSHIP));
      if (r.isEmpty()) {
        return Optional.empty();
      }
      Map<String, String> profile = new java.util.LinkedHashMap<>();
      for (String f : ArchiveReader.PROFILE.keySet()) {
        byte[] v = r.getValue(BASIC, Bytes.toBytes(f));
        if (v != null) {
          profile.put(f, Bytes.toString(v));
        }
      }
      List<String> followers = new ArrayList<>();
      List<String> friends = new ArrayList<>();
      for (Cell c : familyCells(r, RELATIONSHIP)) {
        KeyLayout.Key k = ArchiveKeys.RELATION.decode(CellUtil.cloneQualifier(c));
        List<String> target = k.integer("kind") == 'F' ? followers : friends;
        if (target.size() < maxRelations) {
          target.add(k.string("id"));
        }
      }
      return Optional.of(new UserRecord(uid, profile, followers, friends));
    } catch (IOException e) {
      throw StorageException.of("read user " + uid, e);
    }
  }

  private static List<Cell> familyCells(Result r, byte[] family) {
    List<Cell> out = new ArrayList<>();
    for (Cell c : r.rawCells()) {
      if (CellUtil.matchingFamily(c, family)) {
        out.add(c);
      }
    }
    return out;
  }

  /** A user's statuses newest first, strictly older than {@code beforeId} when given. */
  List<StatusRecord> statuses(Layout layout, String uid, long beforeId, int limit) {
    Scan scan = layout.statusesOf(uid).toScan().setLimit(limit).setCaching(Math.min(limit, 1000));
    if (beforeId > 0) {
      scan.withStartRow(layout.statusRow(uid, beforeId), false);
    }
    List<StatusRecord> out = new ArrayList<>();
    try (Table t = connection.getTable(schema.status());
        ResultScanner s = t.getScanner(scan)) {
      for (Result r : s) {
        out.add(decodeStatus(layout.statusIdOf(r.getRow()), r));
      }
      return out;
    } catch (IOException e) {
      throw StorageException.of("read the statuses of " + uid, e);
    }
  }

  Optional<StatusRecord> status(Layout layout, long id) {
    try (Table index = connection.getTable(schema.statusIndex());
        Table statuses = connection.getTable(schema.status())) {
      byte[] uid =
          index
              .get(new Get(layout.indexRow(id)).addColumn(U, Bytes.toBytes("uid")))
              .getValue(U, Bytes.toBytes("uid"));
      if (uid == null) {
        return Optional.empty();
      }
      Result r = statuses.get(new Get(layout.statusRow(Bytes.toString(uid), id)));
      return r.isEmpty() ? Optional.empty() : Optional.of(decodeStatus(id, r));
    } catch (IOException e) {
      throw StorageException.of("read status " + id, e);
    }
  }

  private static StatusRecord decodeStatus(long id, Result r) {
    return new StatusRecord(
        id,
        str(r, BASIC, "user_id"),
        Long.parseLong(str(r, BASIC, "created_at")),
        str(r, TEXT, "text"),
        str(r, BASIC, "source"),
        Long.parseLong(str(r, BASIC, "reposts_count")),
        Long.parseLong(str(r, BASIC, "comments_count")),
        Long.parseLong(str(r, BASIC, "attitudes_count")),
        str(r, OTHER, "geo"),
        str(r, OTHER, "retweeted_id"),
        str(r, OTHER, "retweeted_uid"));
  }

  private static String str(Result r, byte[] family, String q) {
    byte[] v = r.getValue(family, Bytes.toBytes(q));
    return v == null ? null : Bytes.toString(v);
  }
}
