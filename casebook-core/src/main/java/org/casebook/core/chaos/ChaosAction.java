package org.casebook.core.chaos;

/** What {@link RegionChaos} does to a region, as HBase does it in production. */
public enum ChaosAction {
  FLUSH("flush a region's memstore to a new HFile"),
  COMPACT("compact a region's HFiles (minor)"),
  MAJOR_COMPACT("rewrite a region's HFiles into one per family"),
  SPLIT("split a region at one of its own rows"),
  MERGE("merge two adjacent regions of a table"),
  MOVE("move a region to another RegionServer (skipped with one)");

  private final String description;

  ChaosAction(String description) {
    this.description = description;
  }

  public String description() {
    return description;
  }

  /** The name as the CLI and the JSON report spell it: {@code major-compact}. */
  public String label() {
    return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
  }
}
