package org.casebook.core.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.TableName;
import org.casebook.core.hotspot.HotspotReport;
import org.casebook.core.hotspot.HotspotReport.RegionShare;
import org.casebook.core.schema.TableSpec;

/**
 * A system's split points checked against the keys it writes: its generator's data turned into row
 * keys by its own key code, routed as HBase routes rows ({@link
 * org.casebook.core.schema.SplitPoints#regionOf}, no HBase needed). Every region of every pre-split
 * table must receive a key, and none more than {@link #MAX_SKEW} times the even share. Modules run
 * it on every table their schema declares.
 */
public final class SplitPointChecks {
  /**
   * The largest region share allowed, as a multiple of the even share (1 / regions). Keys spread
   * the way the table was split for land within sampling noise of even (about 1.1–1.4× at a few
   * thousand keys); keys kept together on purpose (a source's or a device's salt bucket, a comment
   * thread under its page's hash) are lumpier by the size of their largest group. 2.5× leaves room
   * for that and still fails split points made for other keys: letters over digit-led keys used 5
   * of 16 regions at 20 % each (3.2×).
   */
  public static final double MAX_SKEW = 2.5;

  private SplitPointChecks() {}

  /**
   * Checks each table of {@code tables} that is pre-split (more than one region) against its keys
   * in {@code keys}; a pre-split table without keys fails (the test must write them). Returns each
   * checked table's spread, in the order of {@code tables}.
   */
  public static List<HotspotReport.Result> verify(
      List<TableSpec> tables, Map<TableName, ? extends List<byte[]>> keys) {
    List<HotspotReport.Result> results = new ArrayList<>();
    for (TableSpec t : tables) {
      if (t.splits().regionCount() < 2) {
        continue;
      }
      List<byte[]> written = keys.get(t.name());
      assertThat(written)
          .as("keys written to %s, pre-split as %s", t.name(), t.splits().description())
          .isNotNull()
          .isNotEmpty();
      HotspotReport.Result r = HotspotReport.analyse(t.name().toString(), t.splits(), written);
      String report = HotspotReport.render(List.of(r));
      List<Integer> empty =
          r.shares().stream().filter(s -> s.writes() == 0).map(RegionShare::region).toList();
      assertThat(empty).as("regions of %s that no key reaches%n%s", t.name(), report).isEmpty();
      assertThat(r.skew())
          .as("largest region share of %s over the even share%n%s", t.name(), report)
          .isLessThanOrEqualTo(MAX_SKEW);
      results.add(r);
    }
    return results;
  }
}
