package org.casebook.core.hotspot;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.casebook.core.schema.SplitPoints;
import org.junit.jupiter.api.Test;

/** The seeds' advice, as numbers: time-first keys pile onto one region, spread keys do not. */
class HotspotReportTest {
  @Test
  void timestampFirstKeysHitOneRegionWhileSaltedAndReversedSpread() {
    long day = 86_400_000L;
    List<KeyDesigns.Event> yesterday = KeyDesigns.workload(50_000, 40_000, 1_700_000_000_000L, 1);
    List<KeyDesigns.Event> today = KeyDesigns.workload(50_000, 40_000, 1_700_000_000_000L + day, 2);
    Map<String, KeyDesigns.Design> designs = KeyDesigns.byName(8);
    Map<String, Double> skew = new java.util.HashMap<>();
    for (KeyDesigns.Design d : designs.values()) {
      SplitPoints splits = d.splitsFor(keys(d, yesterday), 8);
      HotspotReport.Result r = HotspotReport.analyse(d.name(), splits, keys(d, today));
      assertThat(r.writes()).isEqualTo(40_000);
      skew.put(d.name(), r.skew());
    }
    assertThat(skew.get("timestamp-first")).isGreaterThan(7.9); // every write in the last region
    assertThat(skew.get("salted-8")).isLessThan(1.5);
    assertThat(skew.get("reversed-uid")).isLessThan(1.5);
    assertThat(skew.get("md5-prefix")).isLessThan(1.5);
  }

  private static List<byte[]> keys(KeyDesigns.Design d, List<KeyDesigns.Event> events) {
    List<byte[]> out = new ArrayList<>(events.size());
    for (KeyDesigns.Event e : events) {
      out.add(d.key().apply(e));
    }
    return out;
  }
}
