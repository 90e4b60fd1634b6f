package org.casebook.core.backup;

import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import com.fasterxml.jackson.databind.ser.std.ToStringSerializer;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * One backup: an HBase snapshot of every table of the systems it was taken of, known by one name.
 * {@code bytes} is what its snapshots refer to; {@code bytesFreedByDelete} the part of it that
 * neither the live tables nor another snapshot use (kept in HBase's archive for this backup alone):
 * what the backup costs on disk today, and what deleting it frees. Both are -1 when HBase's files
 * could not be read.
 */
public record Backup(
    String name,
    @JsonSerialize(using = ToStringSerializer.class) Instant created,
    List<Table> tables,
    long bytes,
    long bytesFreedByDelete) {
  public Backup {
    Objects.requireNonNull(name, "name is null");
    Objects.requireNonNull(created, "created is null");
    tables = List.copyOf(tables);
  }

  /** One table of a backup: whose it is, its name then, and the snapshot that holds it. */
  public record Table(
      String system,
      String table,
      String snapshot,
      @JsonSerialize(using = ToStringSerializer.class) Instant created,
      long bytes) {
    public Table {
      Objects.requireNonNull(system, "system is null");
      Objects.requireNonNull(table, "table is null");
      Objects.requireNonNull(snapshot, "snapshot is null");
      Objects.requireNonNull(created, "created is null");
    }
  }

  /** The systems it holds, in the order their tables were taken. */
  @com.fasterxml.jackson.annotation.JsonProperty("systems")
  public List<String> systems() {
    return tables.stream().map(Table::system).distinct().toList();
  }
}
