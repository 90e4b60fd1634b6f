package org.casebook.tsdb;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.TableName;
import org.casebook.core.testing.SplitPointChecks;
import org.casebook.tsdb.gen.TsdbGenerator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TsdbSchemaTest {
  private static final TsdbSchema SCHEMA = TsdbSchema.in(TsdbSchema.DEFAULT_NAMESPACE);
  private static final long START_SECONDS = 1_788_220_800L; // 2026-09-01T00:00:00Z
  private static final IncomingPoint.Limits LIMITS =
      new IncomingPoint.Limits(8, START_SECONDS * 1000 + 86_400_000L, 0);

  /**
   * 4,800 generated points (100 hosts × 8 metrics, 6 intervals) keyed as the point writer keys
   * them: with salt, every bucket's region receives rows.
   */
  @ParameterizedTest
  @ValueSource(ints = {2, 4, 8, 16})
  void generatedPointsReachEverySaltBucket(int saltBuckets) {
    Map<TableName, List<byte[]>> keys =
        Map.of(
            SCHEMA.data(),
            rows(TsdbKeys.data(saltBuckets), false),
            SCHEMA.rollup(),
            rows(TsdbKeys.rollups(saltBuckets), true));
    assertThat(SplitPointChecks.verify(SCHEMA.tables(saltBuckets), keys))
        .hasSize(2)
        .allSatisfy(r -> assertThat(r.regions()).isEqualTo(saltBuckets));
  }

  @Test
  void unsaltedNothingIsPreSplit() {
    assertThat(SCHEMA.tables(0)).allMatch(t -> t.splits().regionCount() == 1);
  }

  /**
   * The data rows of the generator's lines, as {@code PointWriter} makes them: ids handed out in
   * the order names are first seen (the uid counter's order; new tag names in {@code HashMap}
   * order, as {@code PointWriter#tagRun}), the hour, the tag run, and the salt over metric and
   * tags; or the rollup rows of the same points ({@code byDay}).
   */
  private static List<byte[]> rows(TsdbKeys.DataRows dataRows, boolean byDay) {
    Map<UidKind, Map<String, byte[]>> ids = new EnumMap<>(UidKind.class);
    List<byte[]> rows = new ArrayList<>();
    Iterator<String> lines =
        TsdbGenerator.lines(new TsdbGenerator.Spec(100, 8, 10, START_SECONDS, 6, 0, 0, 1));
    while (lines.hasNext()) {
      IncomingPoint p = IncomingPoint.fromPutWords(("put " + lines.next()).split(" "), LIMITS);
      byte[] metric = id(ids, UidKind.METRIC, p.metric());
      byte[][] pairs = new byte[p.tags().size()][];
      int i = 0;
      for (Map.Entry<String, String> t : new HashMap<>(p.tags()).entrySet()) {
        pairs[i++] =
            TsdbKeys.tagPair(
                id(ids, UidKind.TAGK, t.getKey()), id(ids, UidKind.TAGV, t.getValue()));
      }
      int hour = TsdbKeys.hourOf(p.timestampMs());
      rows.add(dataRows.row(metric, byDay ? TsdbKeys.dayOf(hour) : hour, TsdbKeys.tagRun(pairs)));
    }
    return rows;
  }

  private static byte[] id(Map<UidKind, Map<String, byte[]>> ids, UidKind kind, String name) {
    Map<String, byte[]> ofKind = ids.computeIfAbsent(kind, k -> new HashMap<>());
    return ofKind.computeIfAbsent(name, n -> TsdbKeys.uid(ofKind.size() + 1));
  }
}
