package org.casebook.archive;

import org.casebook.core.Enums;

/**
 * How a bulk load's job sends rows to its reducers. {@link #REGIONS} (the default) is HBase's
 * total-order partitioning on the tables' regions, so every HFile lies inside one region. {@link
 * #HASH} ignores the regions, as a job does that does not know them (seed 001's layout without the
 * key rule): the rows are hashed over as many reducers as the job runs at once, every HFile then
 * spans regions and the loader must split it — slower, kept to measure what the key rule saves.
 */
public enum Partitioning {
  REGIONS,
  HASH;

  public static Partitioning parse(String value, String field) {
    return Enums.parse(Partitioning.class, value, field);
  }
}
