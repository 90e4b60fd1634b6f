package org.casebook.archive;

/**
 * Seed 001 §2.2.1: how many regions to pre-create. Enough that the data divided by the regions
 * stays under the region size (so no region splits during the import), rounded up to a multiple of
 * the region servers (so every server gets the same share).
 *
 * @param inputBytes the JSON to import
 * @param expansion stored bytes per input byte (HBase keys, qualifiers and timestamps per cell)
 * @param regionBytes the region size at which HBase would split ({@code
 *     hbase.hregion.max.filesize})
 */
public record SplitPlan(
    long inputBytes, double expansion, long regionBytes, int regionServers, int regions) {
  public static SplitPlan compute(
      long inputBytes, double expansion, long regionBytes, int regionServers) {
    long stored = (long) Math.ceil(inputBytes * expansion);
    int needed = (int) Math.max(1, (stored + regionBytes - 1) / regionBytes);
    int servers = Math.max(1, regionServers);
    int regions = ((needed + servers - 1) / servers) * servers;
    return new SplitPlan(inputBytes, expansion, regionBytes, servers, Math.min(regions, 65536));
  }

  /** The computation in words, for reports. */
  public String explain() {
    return String.format(
        java.util.Locale.ROOT,
        "ceil(%,d B × %.2f / %,d B) = %d region(s), rounded up to a multiple of %d "
            + "region server(s) = %d",
        inputBytes,
        expansion,
        regionBytes,
        Math.max(1, (long) Math.ceil(Math.ceil(inputBytes * expansion) / regionBytes)),
        regionServers,
        regions);
  }
}
