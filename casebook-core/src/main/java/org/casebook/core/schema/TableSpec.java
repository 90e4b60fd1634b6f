package org.casebook.core.schema;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.hadoop.hbase.TableName;

/**
 * A table as code: its name, its families and how it is pre-split. {@code keyDoc} is a one-line
 * description of the row key shown by {@code casebook schema show}.
 */
public record TableSpec(TableName name, List<FamilySpec> families, SplitPoints splits, String keyDoc) {
  public TableSpec {
    Objects.requireNonNull(name, "name is null");
    Objects.requireNonNull(families, "families is null");
    Objects.requireNonNull(splits, "splits is null");
    Objects.requireNonNull(keyDoc, "keyDoc is null");
    if (families.isEmpty()) {
      throw new IllegalArgumentException("table " + name + " needs at least one family");
    }
    Map<String, FamilySpec> seen = new LinkedHashMap<>();
    for (FamilySpec f : families) {
      if (seen.put(f.name(), f) != null) {
        throw new IllegalArgumentException("table " + name + " declares family " + f.name() + " twice");
      }
    }
    families = List.copyOf(families);
  }

  public static TableSpec of(String namespace, String table, String keyDoc, SplitPoints splits, FamilySpec... families) {
    return new TableSpec(TableName.valueOf(namespace, table), List.of(families), splits, keyDoc);
  }

  public String namespace() {
    return name.getNamespaceAsString();
  }

}
