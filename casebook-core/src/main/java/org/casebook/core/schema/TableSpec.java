package org.casebook.core.schema;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.hadoop.hbase.TableName;

/**
 * A table as code: its name, its families and how it is pre-split. {@code keyDoc} is a one-line
 * description of the row key shown by {@code casebook schema show}. {@code settings} are
 * table-level descriptor values set at creation (e.g. {@code MAX_FILESIZE}, {@code SPLIT_POLICY}).
 */
public record TableSpec(
    TableName name,
    List<FamilySpec> families,
    SplitPoints splits,
    String keyDoc,
    Map<String, String> settings) {
  public TableSpec {
    Objects.requireNonNull(name, "name is null");
    Objects.requireNonNull(families, "families is null");
    Objects.requireNonNull(splits, "splits is null");
    Objects.requireNonNull(keyDoc, "keyDoc is null");
    settings = Map.copyOf(Objects.requireNonNull(settings, "settings is null"));
    if (families.isEmpty()) {
      throw new IllegalArgumentException("table " + name + " needs at least one family");
    }
    Map<String, FamilySpec> seen = new LinkedHashMap<>();
    for (FamilySpec f : families) {
      if (seen.put(f.name(), f) != null) {
        throw new IllegalArgumentException(
            "table " + name + " declares family " + f.name() + " twice");
      }
    }
    families = List.copyOf(families);
  }

  public TableSpec(TableName name, List<FamilySpec> families, SplitPoints splits, String keyDoc) {
    this(name, families, splits, keyDoc, Map.of());
  }

  /** This table with {@code more} table-level settings (replacing values of the same keys). */
  public TableSpec withSettings(Map<String, String> more) {
    Map<String, String> all = new java.util.TreeMap<>(settings);
    all.putAll(more);
    return new TableSpec(name, families, splits, keyDoc, all);
  }

  public static TableSpec of(
      String namespace, String table, String keyDoc, SplitPoints splits, FamilySpec... families) {
    return new TableSpec(TableName.valueOf(namespace, table), List.of(families), splits, keyDoc);
  }

  public String namespace() {
    return name.getNamespaceAsString();
  }
}
