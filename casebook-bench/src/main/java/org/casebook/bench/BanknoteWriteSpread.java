package org.casebook.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.hbase.util.Bytes;
import org.casebook.banknote.Note;
import org.casebook.core.hotspot.HotspotReport;
import org.casebook.core.schema.SplitPoints;

/**
 * Where the delivered notes' writes go over the notes table's regions under the two key designs —
 * serial first (the seed's warning) and reversed serial (stored) — per agent batch and overall, and
 * the report of it beside the region servers' own write counters.
 */
final class BanknoteWriteSpread {
  private final BanknoteRows rows;
  private final int batchSize;
  private final Spread serialFirst =
      new Spread("serial-first (serial | MAX-time | origin | record)", null);
  private final Spread reversed;

  BanknoteWriteSpread(BanknoteRows rows, int batchSize) {
    this.rows = rows;
    this.batchSize = batchSize;
    this.reversed =
        new Spread("reversed (reversed serial | MAX-time | origin | record)", rows.splits());
  }

  /** One agent batch of a file's notes; {@code sorter} batches are also counted on their own. */
  void batch(List<Note> notes, boolean sorter) {
    serialFirst.batch(notes.stream().map(BanknoteRows::serialFirst).toList(), sorter);
    reversed.batch(notes.stream().map(rows::reversed).toList(), sorter);
  }

  /** Prints the spread of both designs beside {@code live} (the notes table's counters). */
  Map<String, Object> report(HotspotReport.Result live) {
    List<HotspotReport.Result> results =
        List.of(
            serialFirst.total(),
            reversed.total(),
            new HotspotReport.Result(
                "reversed, measured: region write counters of the notes table",
                live.regions(),
                live.writes(),
                live.shares()));
    System.out.println();
    System.out.println("Write spread of the delivered notes over the notes table's 11 regions:");
    System.out.print(HotspotReport.render(results));
    String perBatch =
        String.format(
            Locale.ROOT,
            "a sorter's agent batch (up to %d notes): serial-first keys touch %.1f regions on average,"
                + " the busiest taking %.0f%% of the batch, and %.0f%% of batches go to a single"
                + " region; reversed keys touch %.1f regions, the busiest taking %.0f%%, %.0f%% single",
            batchSize,
            serialFirst.meanRegions(),
            serialFirst.meanMaxShare() * 100,
            serialFirst.singleRegionShare() * 100,
            reversed.meanRegions(),
            reversed.meanMaxShare() * 100,
            reversed.singleRegionShare() * 100);
    System.out.println(perBatch);
    Map<String, Object> m = new LinkedHashMap<>();
    for (HotspotReport.Result r : results) {
      m.put(
          r.design(),
          Map.of(
              "maxShare", r.maxShare(),
              "skew", r.skew(),
              "shares", r.shares().stream().map(HotspotReport.RegionShare::share).toList()));
    }
    m.put("sorterBatchesSerialFirstRegions", serialFirst.meanRegions());
    m.put("sorterBatchesSerialFirstMaxShare", serialFirst.meanMaxShare());
    m.put("sorterBatchesReversedRegions", reversed.meanRegions());
    m.put("sorterBatchesReversedMaxShare", reversed.meanMaxShare());
    m.put("sorterBatchesSerialFirstSingleRegion", serialFirst.singleRegionShare());
    m.put("sorterBatchesReversedSingleRegion", reversed.singleRegionShare());
    return m;
  }

  /** Where one key design sends writes: per agent batch and in total. */
  private static final class Spread {
    private final String design;
    private final List<byte[]> sample = new ArrayList<>();
    private SplitPoints splits;
    private long[] counts;
    private long batches;
    private double regionsSum;
    private double maxShareSum;
    private long singleRegion;
    private final List<Integer> sampleSorter = new ArrayList<>();

    /** {@code splits} null: split where the first keys lie, as HBase's own splitting would. */
    Spread(String design, SplitPoints splits) {
      this.design = design;
      this.splits = splits;
    }

    /**
     * Serial-first tables are split where the serials lie (quantiles of the first 20,000 keys, as
     * HBase's own splitting would end up); reversed ones on the notes table's split points.
     */
    void batch(List<byte[]> keys, boolean sorter) {
      if (counts == null) {
        if (splits == null) {
          sample.addAll(keys);
          sampleSorter.add(sorter ? keys.size() : -keys.size());
          if (sample.size() >= 20_000) {
            splitAtSample();
          }
          return;
        }
        counts = new long[splits.regionCount()];
      }
      HotspotReport.Result r = HotspotReport.analyse(design, splits, keys);
      for (HotspotReport.RegionShare s : r.shares()) {
        counts[s.region()] += s.writes();
      }
      if (sorter) {
        batches++;
        long used = r.shares().stream().filter(s -> s.writes() > 0).count();
        regionsSum += used;
        singleRegion += used == 1 ? 1 : 0;
        maxShareSum += r.maxShare();
      }
    }

    /** Splits where the sampled keys lie, then counts the sampled batches. */
    private void splitAtSample() {
      splits = SplitPoints.quantiles(sample, 11);
      List<byte[]> pending = new ArrayList<>(sample);
      sample.clear();
      counts = new long[splits.regionCount()];
      int at = 0;
      for (int size : sampleSorter) {
        int n = Math.abs(size);
        batch(pending.subList(at, at + n), size > 0);
        at += n;
      }
      sampleSorter.clear();
    }

    double meanRegions() {
      return batches == 0 ? 0 : regionsSum / batches;
    }

    /** Share of sorter batches whose every key fell in one region. */
    double singleRegionShare() {
      return batches == 0 ? 0 : (double) singleRegion / batches;
    }

    double meanMaxShare() {
      return batches == 0 ? 0 : maxShareSum / batches;
    }

    HotspotReport.Result total() {
      if (counts == null && splits == null) {
        // Fewer keys than the sample wants (a small run): split at the quantiles of all of them.
        splitAtSample();
      } else if (counts == null) {
        counts = new long[splits.regionCount()];
      }
      long sum = 0;
      for (long c : counts) {
        sum += c;
      }
      List<HotspotReport.RegionShare> shares = new ArrayList<>();
      List<byte[]> points = splits.points();
      for (int i = 0; i < counts.length; i++) {
        shares.add(
            new HotspotReport.RegionShare(
                i,
                i == 0 ? "" : Bytes.toStringBinary(points.get(i - 1)),
                counts[i],
                sum == 0 ? 0 : (double) counts[i] / sum));
      }
      return new HotspotReport.Result(design, counts.length, sum, shares);
    }
  }
}
