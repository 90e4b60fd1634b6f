package org.casebook.core.chaos;

/** What {@link RegionChaos} does to a region, as HBase does it in production. */
public enum ChaosAction {
  FLUSH("flush a region's memstore to a new HFile"),
  COMPACT("compact a region's HFiles (minor)"),
  MAJOR_COMPACT("rewrite a region's HFiles into one per family"),
  SPLIT("split a region at one of its own rows"),
  MERGE("merge two adjacent regions of a table"),
  MOVE("move a region to another RegionServer (skipped with one)"),
  KILL_REGIONSERVER(
      "kill -9 a RegionServer, start it again after a pause (needs the operator's commands)"),
  KILL_MASTER("kill -9 the HMaster, start it again after a pause (needs the operator's commands)");

  private final String description;

  ChaosAction(String description) {
    this.description = description;
  }

  /** The actions on regions, through HBase's Admin alone: what every run can take. */
  public static java.util.List<ChaosAction> regionActions() {
    return java.util.List.of(FLUSH, COMPACT, MAJOR_COMPACT, SPLIT, MERGE, MOVE);
  }

  /** Whether this action kills a daemon, carried out through {@link ProcessCommands}. */
  public boolean killsProcess() {
    return this == KILL_REGIONSERVER || this == KILL_MASTER;
  }

  public String description() {
    return description;
  }

  /** The name as the CLI and the JSON report spell it: {@code major-compact}. */
  public String label() {
    return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
  }
}
