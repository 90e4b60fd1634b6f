package org.casebook.archive;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.casebook.core.LocalFileException;
import org.casebook.core.StorageException;
import org.casebook.core.cli.Progress;
import org.casebook.core.schema.SchemaManager;
import org.casebook.core.schema.SplitPoints;
import org.casebook.core.schema.TableSpec;

/**
 * What the seed 001 §3.2 experiment ({@code casebook bench archive}) needs beyond the service: an
 * archive namespace with chosen split points, key rule and table settings; a bulk load that may
 * partition rows by hash (case 2); and the plain keys of a file (to split case 2's tables at their
 * quantiles). Not for imports: those go through {@link ArchiveService#importFiles}.
 */
public final class ExperimentHooks {
  /** Split points of the three data tables. */
  public record TableSplits(SplitPoints user, SplitPoints status, SplitPoints index) {
    public static TableSplits none() {
      return new TableSplits(SplitPoints.none(), SplitPoints.none(), SplitPoints.none());
    }

    /** At region ids 1..R-1, as the key rule's archive is split. */
    public static TableSplits regionIds(int regions) {
      SplitPoints s = regions > 1 ? SplitPoints.regionPrefixes(regions) : SplitPoints.none();
      return new TableSplits(s, s, s);
    }
  }

  /** The rows a file makes in the plain layout (no key rule): users, statuses, index. */
  public record PlainKeys(List<byte[]> users, List<byte[]> statuses, List<byte[]> index) {}

  private ExperimentHooks() {}

  /**
   * Drops {@code namespace} if it exists and creates its tables with {@code splits} and {@code
   * tableSettings} (region size, split policy), recording {@code layout}.
   */
  public static void recreate(
      Connection connection,
      String namespace,
      Layout layout,
      TableSplits splits,
      Map<String, String> tableSettings) {
    ArchiveSchema schema = ArchiveSchema.in(namespace);
    SchemaManager schemas = new SchemaManager(connection);
    schemas.dropNamespace(namespace);
    schemas.ensure(schema.metaSpec());
    List<TableSpec> specs = schema.dataSpecs(splits.user(), splits.status(), splits.index());
    schemas.ensureAll(specs.stream().map(t -> t.withSettings(tableSettings)).toList());
    new ArchiveStore(connection, schema).saveLayout(layout);
  }

  /**
   * Keeps an experiment's results (its JSON report) in the archive's own {@code meta} table, where
   * {@code GET /api/archive/experiments} and the console's archive page find them.
   */
  public static void recordResults(Connection connection, long recordedMillis, byte[] json) {
    recordResults(connection, ArchiveSchema.DEFAULT_NAMESPACE, recordedMillis, json);
  }

  /** As {@link #recordResults(Connection, long, byte[])}, in the archive of {@code namespace}. */
  public static void recordResults(
      Connection connection, String namespace, long recordedMillis, byte[] json) {
    ArchiveSchema schema = ArchiveSchema.in(namespace);
    new SchemaManager(connection).ensure(schema.metaSpec());
    new ArchiveStore(connection, schema).saveExperiment(recordedMillis, json);
  }

  /** The data tables of {@code namespace}: user, status, status_index. */
  public static List<TableName> dataTables(String namespace) {
    return ArchiveSchema.in(namespace).dataTables();
  }

  /**
   * One bulk-load job of local {@code files} into {@code namespace} ({@link #recreate} first),
   * partitioned by region or, for the seed's case 2, by hash.
   */
  public static ArchiveBulkLoad.Outcome bulkLoad(
      Connection connection,
      Configuration conf,
      String namespace,
      Layout layout,
      List<Path> files,
      Path work,
      Path quarantine,
      int attempts,
      ArchiveBulkLoad.Partitioning partitioning) {
    List<org.apache.hadoop.fs.Path> inputs =
        files.stream().map(ExperimentHooks::hadoopPath).toList();
    try {
      return ArchiveBulkLoad.run(
          connection,
          conf,
          ArchiveSchema.in(namespace),
          layout,
          inputs,
          hadoopPath(work),
          hadoopPath(quarantine),
          attempts,
          partitioning,
          Progress.silent());
    } catch (IOException e) {
      throw StorageException.of("bulk-load into " + namespace, e);
    } catch (InterruptedException e) {
      throw StorageException.interrupted("bulk-load into " + namespace, e);
    }
  }

  /** Every user, status and index row of a good file in the plain layout. */
  public static PlainKeys plainKeys(Path file) {
    List<byte[]> users = new ArrayList<>();
    List<byte[]> statuses = new ArrayList<>();
    List<byte[]> index = new ArrayList<>();
    Layout plain = new Layout(1, false);
    try (InputStream in = new BufferedInputStream(Files.newInputStream(file), 1 << 16)) {
      ArchiveReader.read(
          in,
          new ArchiveReader.Sink() {
            @Override
            public void user(UserRecord user) {
              users.add(plain.userRow(user.uid()));
            }

            @Override
            public void status(StatusRecord status) {
              statuses.add(plain.statusRow(status.uid(), status.id()));
              index.add(plain.indexRow(status.id()));
            }
          });
    } catch (IOException e) {
      throw LocalFileException.of("read", file, e);
    } catch (BadInputException e) {
      throw new IllegalArgumentException("file " + file + " is bad: " + e.getMessage(), e);
    }
    return new PlainKeys(users, statuses, index);
  }

  private static org.apache.hadoop.fs.Path hadoopPath(Path p) {
    return new org.apache.hadoop.fs.Path(p.toAbsolutePath().toUri());
  }
}
