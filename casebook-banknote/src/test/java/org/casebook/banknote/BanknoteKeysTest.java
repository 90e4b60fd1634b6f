package org.casebook.banknote;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.casebook.core.hotspot.HotspotReport;
import org.casebook.core.key.KeyLayout;
import org.casebook.core.schema.SplitPoints;
import org.casebook.core.testing.KeyLayoutChecks;
import org.junit.jupiter.api.Test;

class BanknoteKeysTest {
  /** The README's worked example: the seed's serial, read by a sorter. */
  static final String SERIAL = "XN15115812";

  static final long TIME = 1_771_900_384_000L; // 2026-02-24T02:33:04Z, 10:33:04 in Beijing
  static final String DEVICE = "BOC20/JLGF/JL303MHJ40079";
  static final String SOURCE = "0110-001_sorting_B17.fsn";
  static final long RECORD = 41;
  static final byte[] ORIGIN = BanknoteKeys.origin(DEVICE, SOURCE);

  @Test
  void everyLayoutRoundTripsAndKeepsItsOrder() {
    assertThat(BanknoteKeys.ALL).hasSize(11);
    for (KeyLayout layout : BanknoteKeys.ALL) {
      KeyLayoutChecks.verify(layout, 300);
    }
    KeyLayoutChecks.verify(BanknoteKeys.SERIAL_FIRST, 300);
  }

  @Test
  void theDescriptorListsEveryLayout() {
    assertThat(new BanknoteSystem().descriptor().keys())
        .containsExactlyElementsOf(BanknoteKeys.ALL);
  }

  @Test
  void theNotesKeyStartsWithTheSeedsReversedSerial() {
    byte[] key = BanknoteKeys.NOTE.encode(SERIAL, TIME, ORIGIN, RECORD);
    byte[] reversed = "21851151NX".getBytes(StandardCharsets.US_ASCII);
    assertThat(java.util.Arrays.copyOf(key, reversed.length)).isEqualTo(reversed);
    assertThat(BanknoteKeys.NOTE.decode(key).string("serial")).isEqualTo(SERIAL);
    assertThat(key).hasSize(36); // 12 serial + 8 time + 8 origin + 8 record
    assertThat(BanknoteKeys.origin(DEVICE, SOURCE))
        .isNotEqualTo(BanknoteKeys.origin(DEVICE + "0", SOURCE))
        .isNotEqualTo(BanknoteKeys.origin(DEVICE, "x" + SOURCE));
    // A serial that is a suffix of another keeps its own prefix: no row of one is in the other's
    // scan (the string part is terminated).
    assertThat(BanknoteKeys.NOTE.range("15115812").contains(key)).isFalse();
    assertThat(BanknoteKeys.NOTE.range(SERIAL).contains(key)).isTrue();
  }

  /**
   * A device's declaration is the prefix of its summary rows: the day's one scan reads it just
   * before them, and a day's range holds every device's rows and no other day's.
   */
  @Test
  void aDeclarationSortsBeforeItsDevicesSummariesWithinTheDay() {
    byte[] declared = BanknoteKeys.DELIVERED.encode("0110-001", 20508, DEVICE);
    byte[] piece = BanknoteKeys.SETTLEMENT.encode("0110-001", 20508, DEVICE, SOURCE, 500L);
    assertThat(BanknoteKeys.SETTLEMENT.prefix("0110-001", 20508, DEVICE)).isEqualTo(declared);
    assertThat(org.apache.hadoop.hbase.util.Bytes.compareTo(declared, piece)).isNegative();
    assertThat(BanknoteKeys.SETTLEMENT.range("0110-001", 20508).contains(declared)).isTrue();
    assertThat(BanknoteKeys.SETTLEMENT.range("0110-001", 20508).contains(piece)).isTrue();
    assertThat(BanknoteKeys.SETTLEMENT.range("0110-001", 20509).contains(piece)).isFalse();
    assertThat(BanknoteKeys.SETTLEMENT.range("0110-00", 20508).contains(piece)).isFalse();
  }

  @Test
  void newerReadingsOfANoteSortFirst() {
    byte[] older = BanknoteKeys.NOTE.encode(SERIAL, TIME, ORIGIN, RECORD);
    byte[] newer =
        BanknoteKeys.NOTE.encode(SERIAL, TIME + 1000, BanknoteKeys.origin("ATM-1", "a.fsn"), 0L);
    assertThat(org.apache.hadoop.hbase.util.Bytes.compareTo(newer, older)).isNegative();
  }

  @Test
  void theReadmesWorkedExampleIsWhatTheLayoutsPrint() throws IOException {
    String readme = Files.readString(Path.of("README.md"), StandardCharsets.UTF_8);
    assertLine(readme, "notes", BanknoteKeys.NOTE.explain(SERIAL, TIME, ORIGIN, RECORD));
    assertLine(readme, "devices", BanknoteKeys.DEVICE.explain(DEVICE, TIME, ORIGIN, RECORD));
    assertLine(
        readme, "suspects", BanknoteKeys.SUSPECT.explain("0110-001", 20508, TIME, ORIGIN, RECORD));
    assertLine(readme, "batches", BanknoteKeys.BATCH.explain("B17", DEVICE));
    assertLine(readme, "b:", BanknoteKeys.BATCH_COLUMN.explain(SOURCE, 0L));
    assertLine(
        readme,
        "settlement",
        BanknoteKeys.SETTLEMENT.explain("0110-001", 20508, DEVICE, SOURCE, 0L));
    assertLine(readme, "delivered", BanknoteKeys.DELIVERED.explain("0110-001", 20508, DEVICE));
    assertLine(readme, "branches", BanknoteKeys.BRANCH.explain("0110-001"));
    assertLine(readme, "n:", BanknoteKeys.COLUMN.explain("r"));
    assertLine(readme, "i:", BanknoteKeys.COLUMN.explain("g"));
  }

  /**
   * The seed's reason for reversing: a sorter reads a bundle of new notes with consecutive serials.
   * Serial-first keys of one bundle land in one region; reversed keys spread over all.
   */
  @Test
  void aSortersRunOfSerialsHitsOneRegionSerialFirstAndEveryRegionReversed() {
    List<Note> run = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      run.add(note(String.format("XN%08d", 15_115_800 + i), i));
    }
    List<byte[]> history = new ArrayList<>();
    java.util.SplittableRandom r = new java.util.SplittableRandom(5);
    String letters = "ABCDEFGHJKLMNPQRSTUWXYZ";
    for (int i = 0; i < 20_000; i++) {
      String s =
          ""
              + letters.charAt(r.nextInt(letters.length()))
              + letters.charAt(r.nextInt(letters.length()))
              + String.format("%08d", r.nextInt(100_000_000));
      history.add(BanknoteKeys.serialFirst(note(s, i)));
    }
    SplitPoints serialSplits = SplitPoints.quantiles(history, 11);
    HotspotReport.Result serialFirst =
        HotspotReport.analyse(
            "serial-first", serialSplits, run.stream().map(BanknoteKeys::serialFirst).toList());
    HotspotReport.Result reversed =
        HotspotReport.analyse(
            "reversed", BanknoteSchema.noteSplits(), run.stream().map(BanknoteKeys::note).toList());
    assertThat(serialFirst.regionsUsed()).isEqualTo(1);
    assertThat(serialFirst.maxShare()).isEqualTo(1.0);
    assertThat(reversed.regionsUsed()).isEqualTo(10); // digits 0-9; the letters' region is idle
    assertThat(reversed.maxShare()).isEqualTo(0.1);
  }

  private static Note note(String serial, long record) {
    return new Note(
        serial,
        100,
        "CNY",
        2015,
        DEVICE,
        DeviceKind.SORTER,
        "0110-001",
        Operation.SORTING,
        Instant.ofEpochMilli(TIME),
        "B17",
        Verdict.GENUINE,
        List.of(),
        SOURCE,
        record,
        null);
  }

  /** A line of the README that starts with {@code label} followed by exactly {@code bytes}. */
  private static void assertLine(String readme, String label, String bytes) {
    Pattern line =
        Pattern.compile(
            "(?m)^\\s*" + Pattern.quote(label) + "\\s*" + Pattern.quote(bytes) + "(\\s|$)");
    assertThat(line.matcher(readme).find()).as("README line '%s %s'", label, bytes).isTrue();
  }
}
