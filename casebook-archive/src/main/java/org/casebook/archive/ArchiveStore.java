package org.casebook.archive;

import static org.casebook.archive.ArchiveSchema.BASIC;
import static org.casebook.archive.ArchiveSchema.RELATIONSHIP;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.hbase.TableNotFoundException;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.casebook.core.StorageException;
import org.casebook.core.SystemContext;
import org.casebook.core.key.KeyRange;
import org.casebook.core.schema.SchemaManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every HBase read and write of the archive's service, for one namespace: the tables' creation and
 * the recorded layout, import and experiment records in {@code meta}, and the queries. The data
 * tables are written by the loaders in {@code batch} (HFiles or puts, through {@link
 * ArchiveCellCodec}).
 */
final class ArchiveStore {
  private static final Logger LOG = LoggerFactory.getLogger(ArchiveStore.class);
  private static final byte[] IMPORT_REPORT = Bytes.toBytes("import");
  private static final byte[] EXPERIMENT_RESULTS = Bytes.toBytes("experiment");

  private final Connection connection;
  private final ArchiveSchema schema;

  ArchiveStore(SystemContext ctx, String namespace) {
    this.connection = ctx.connection();
    this.schema = ArchiveSchema.in(namespace);
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
    } catch (TableNotFoundException e) {
      return Optional.empty();
    } catch (IOException e) {
      throw StorageException.of("read the archive layout", e);
    }
  }

  /**
   * Creates the data tables as {@code wanted} says unless the archive exists, and records the
   * layout. An existing archive keeps its layout (keys depend on it); a data table it lacks is
   * created at its own region ids. Returns the layout in force.
   */
  Layout prepare(ArchiveTables wanted) {
    SchemaManager schemas = new SchemaManager(connection);
    schemas.ensure(schema.metaSpec());
    Optional<Layout> existing = layout();
    if (existing.isPresent()) {
      Layout kept = existing.get();
      if (!kept.equals(wanted.layout())) {
        LOG.info(
            "archive {} already has layout {}; keeping it (requested {})",
            schema.namespace(),
            kept,
            wanted.layout());
      }
      schemas.ensureAll(
          schema.dataSpecs(
              kept.equals(wanted.layout())
                  ? wanted
                  : ArchiveTables.regionIds(kept).withTableSettings(wanted.tableSettings())));
      return kept;
    }
    schemas.ensureAll(schema.dataSpecs(wanted));
    saveLayout(wanted.layout());
    return wanted.layout();
  }

  private void saveLayout(Layout layout) {
    try (Table t = connection.getTable(schema.meta())) {
      t.put(
          new Put(ArchiveSchema.LAYOUT_ROW)
              .addColumn(ArchiveSchema.M, ArchiveSchema.REGIONS, Bytes.toBytes(layout.regions()))
              .addColumn(ArchiveSchema.M, ArchiveSchema.KEY_RULE, Bytes.toBytes(layout.keyRule())));
    } catch (IOException e) {
      throw StorageException.of("save the archive layout", e);
    }
  }

  /** The live region servers (the split computation rounds up to a multiple of them). */
  int regionServers() {
    try (Admin admin = connection.getAdmin()) {
      return admin.getRegionServers().size();
    } catch (IOException e) {
      throw StorageException.of("count the region servers", e);
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

  /** An experiment's results document, kept in {@code meta} (created if need be) as its JSON. */
  void saveExperiment(Instant recordedAt, byte[] json) {
    new SchemaManager(connection).ensure(schema.metaSpec());
    try (Table t = connection.getTable(schema.meta())) {
      t.put(
          new Put(
                  ArchiveKeys.EXPERIMENT_ROW.encode(
                      ArchiveKeys.EXPERIMENT_KIND, recordedAt.toEpochMilli()))
              .addColumn(ArchiveSchema.M, EXPERIMENT_RESULTS, json));
    } catch (IOException e) {
      throw StorageException.of("record an experiment's results", e);
    }
  }

  /** The newest {@code limit} experiment results; none if the archive has no {@code meta} yet. */
  List<RecordedExperiment> experiments(int limit) {
    KeyRange range = ArchiveKeys.EXPERIMENT_ROW.range(ArchiveKeys.EXPERIMENT_KIND);
    Scan scan =
        new Scan()
            .withStartRow(range.start())
            .withStopRow(range.stop())
            .addColumn(ArchiveSchema.M, EXPERIMENT_RESULTS)
            .setLimit(limit);
    List<RecordedExperiment> out = new ArrayList<>();
    try (Table t = connection.getTable(schema.meta());
        ResultScanner scanner = t.getScanner(scan)) {
      for (Result r : scanner) {
        long at = ArchiveKeys.EXPERIMENT_ROW.decode(r.getRow()).number("recordedAt");
        out.add(
            new RecordedExperiment(
                Instant.ofEpochMilli(at),
                Bytes.toString(r.getValue(ArchiveSchema.M, EXPERIMENT_RESULTS))));
      }
    } catch (TableNotFoundException e) {
      return List.of();
    } catch (IOException e) {
      throw StorageException.of("read experiment results", e);
    } catch (UncheckedIOException e) {
      // The scanner reports a missing table on its first fetch, through the iterator.
      if (e.getCause() instanceof TableNotFoundException) {
        return List.of();
      }
      throw StorageException.of("read experiment results", e.getCause());
    }
    return out;
  }

  Optional<UserRecord> user(Layout layout, String uid, int maxRelations) {
    try (Table t = connection.getTable(schema.user())) {
      Result r = t.get(new Get(layout.userRow(uid)).addFamily(BASIC).addFamily(RELATIONSHIP));
      return r.isEmpty()
          ? Optional.empty()
          : Optional.of(ArchiveCellCodec.user(uid, r, maxRelations));
    } catch (IOException e) {
      throw StorageException.of("read user " + uid, e);
    }
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
        out.add(ArchiveCellCodec.status(layout.statusIdOf(r.getRow()), r));
      }
      return out;
    } catch (IOException e) {
      throw StorageException.of("read the statuses of " + uid, e);
    }
  }

  Optional<StatusRecord> status(Layout layout, long id) {
    try (Table index = connection.getTable(schema.statusIndex());
        Table statuses = connection.getTable(schema.status())) {
      String uid = ArchiveCellCodec.indexedUid(index.get(new Get(layout.indexRow(id))));
      if (uid == null) {
        return Optional.empty();
      }
      Result r = statuses.get(new Get(layout.statusRow(uid, id)));
      return r.isEmpty() ? Optional.empty() : Optional.of(ArchiveCellCodec.status(id, r));
    } catch (IOException e) {
      throw StorageException.of("read status " + id, e);
    }
  }
}
