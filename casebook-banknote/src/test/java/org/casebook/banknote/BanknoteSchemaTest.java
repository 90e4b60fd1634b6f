package org.casebook.banknote;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.TableName;
import org.casebook.banknote.gen.BanknoteGenerator;
import org.casebook.core.hotspot.HotspotReport;
import org.casebook.core.testing.SplitPointChecks;
import org.junit.jupiter.api.Test;

class BanknoteSchemaTest {
  private static final BanknoteSchema SCHEMA = BanknoteSchema.in(BanknoteSchema.DEFAULT_NAMESPACE);

  /**
   * 6,000 generated notes from 60 devices, keyed as the store keys them: every region of the notes
   * and devices tables receives rows. The devices table's salt keeps a device in one bucket, so its
   * spread is that of the devices over 8 buckets: it needs a few devices per bucket.
   */
  @Test
  void generatedNotesReachEveryRegion() {
    BanknoteGenerator gen =
        new BanknoteGenerator(
            new BanknoteGenerator.Spec(
                60,
                1,
                100,
                0,
                0,
                false,
                1,
                LocalDate.parse("2026-09-01"),
                ZoneId.of("Asia/Shanghai")));
    Map<TableName, List<byte[]>> keys = new HashMap<>();
    List<byte[]> notes = keys.computeIfAbsent(SCHEMA.notes(), t -> new ArrayList<>());
    List<byte[]> devices = keys.computeIfAbsent(SCHEMA.devices(), t -> new ArrayList<>());
    List<Note> all = new ArrayList<>();
    gen.notes(6_000, 100, all::addAll);
    for (Note n : all) {
      notes.add(BanknoteKeys.note(n));
      devices.add(BanknoteKeys.device(n));
    }
    List<HotspotReport.Result> results = SplitPointChecks.verify(SCHEMA.tables(), keys);
    assertThat(results).extracting(HotspotReport.Result::regions).containsExactly(11, 8);
    // The letters' region holds the US dollars the generator's teller machines take.
    assertThat(all).anyMatch(n -> n.currency().equals("USD"));
  }
}
