package org.casebook.core.backup;

import java.util.Optional;
import java.util.regex.Pattern;
import org.apache.hadoop.hbase.TableName;
import org.casebook.core.InvalidInputException;

/**
 * How a backup's snapshots are named: {@code cb.<backup>.<system>.<namespace>.<qualifier>}. HBase
 * keeps no grouping of snapshots, so the name carries the backup and the system; a snapshot name
 * allows letters, digits, {@code _ - .}, and neither a backup nor a system name nor a namespace may
 * hold a dot, so the first four dots separate the parts and the table's qualifier (which may hold
 * dots) is the rest.
 */
final class SnapshotNames {
  static final String PREFIX = "cb.";

  private static final Pattern BACKUP = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_-]{0,63}");

  private static final Pattern SYSTEM = Pattern.compile("[a-z0-9][a-z0-9_-]*");

  /** A snapshot of one table of one system in one backup. */
  record Parsed(String backup, String system, TableName table) {}

  private SnapshotNames() {}

  /** {@code name} if it can name a backup; else an invalid {@code name}. */
  static String checkBackup(String name) {
    InvalidInputException.check(
        name != null && BACKUP.matcher(name).matches(),
        "name",
        "a backup name is 1 to 64 letters, digits, '_' or '-', starting with a letter or digit: "
            + name);
    return name;
  }

  static String snapshot(String backup, String system, TableName table) {
    checkBackup(backup);
    if (!SYSTEM.matcher(system).matches()) {
      throw new IllegalArgumentException("not a system name: " + system);
    }
    return PREFIX
        + backup
        + "."
        + system
        + "."
        + table.getNamespaceAsString()
        + "."
        + table.getQualifierAsString();
  }

  /** The backup, system and table a snapshot holds; empty for a snapshot not made by a backup. */
  static Optional<Parsed> parse(String snapshot) {
    if (!snapshot.startsWith(PREFIX)) {
      return Optional.empty();
    }
    String[] parts = snapshot.split("\\.", 5);
    if (parts.length != 5
        || !BACKUP.matcher(parts[1]).matches()
        || !SYSTEM.matcher(parts[2]).matches()
        || parts[3].isEmpty()
        || parts[4].isEmpty()) {
      return Optional.empty();
    }
    try {
      return Optional.of(new Parsed(parts[1], parts[2], TableName.valueOf(parts[3], parts[4])));
    } catch (IllegalArgumentException notATableName) {
      return Optional.empty();
    }
  }

  /** Matches the names of every snapshot of {@code backup} (and of no other backup). */
  static Pattern ofBackup(String backup) {
    return Pattern.compile(Pattern.quote(PREFIX + checkBackup(backup) + ".") + ".+");
  }

  /** Matches the names of every backup's snapshots. */
  static Pattern ofAll() {
    return Pattern.compile(Pattern.quote(PREFIX) + ".+");
  }
}
