package org.casebook.core.hotspot;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.casebook.core.key.KeyBuilder;
import org.casebook.core.schema.SplitPoints;

/**
 * The key designs the seeds argue about, applied to one event workload (a user id and a timestamp
 * per write), so that their spread over regions can be compared with numbers.
 */
public final class KeyDesigns {
  /** One write of the workload. */
  public record Event(String userId, long timestamp) {
    public Event {
      Objects.requireNonNull(userId, "userId is null");
    }
  }

  /**
   * A named way to turn an event into a row key, and how such a table is split: salted and hashed
   * keys are pre-split on their buckets; the others split where yesterday's data was, which is
   * where HBase's own region splitting would have put the boundaries.
   */
  public record Design(
      String name,
      String shape,
      Function<Event, byte[]> key,
      BiFunction<List<byte[]>, Integer, SplitPoints> splits) {
    public SplitPoints splitsFor(List<byte[]> history, int regions) {
      return splits.apply(history, regions);
    }
  }

  private KeyDesigns() {}

  /** The designs, with {@code buckets} salt buckets (and as many regions) for the salted one. */
  public static List<Design> all(int buckets) {
    BiFunction<List<byte[]>, Integer, SplitPoints> quantiles = SplitPoints::quantiles;
    return List.of(
        new Design(
            "timestamp-first",
            "ts | uid",
            e -> KeyBuilder.create().addLong(e.timestamp()).addString(e.userId()).build(),
            quantiles),
        new Design(
            "uid-first",
            "uid | reverse ts",
            e ->
                KeyBuilder.create()
                    .addString(e.userId())
                    .addReverseTimestamp(e.timestamp())
                    .build(),
            quantiles),
        new Design(
            "reversed-uid",
            "reversed uid | ts",
            e -> KeyBuilder.create().addReversedString(e.userId()).addLong(e.timestamp()).build(),
            quantiles),
        new Design(
            "salted-" + buckets,
            "salt(uid) | ts | uid",
            e ->
                KeyBuilder.create()
                    .addSalt(buckets, e.userId().getBytes(StandardCharsets.UTF_8))
                    .addLong(e.timestamp())
                    .addString(e.userId())
                    .build(),
            (history, regions) -> SplitPoints.leadingByteBuckets(buckets)),
        new Design(
            "md5-prefix",
            "md5(uid)[0..4] | uid | ts",
            e ->
                KeyBuilder.create()
                    .addHashPrefix(4, e.userId().getBytes(StandardCharsets.UTF_8))
                    .addString(e.userId())
                    .addLong(e.timestamp())
                    .build(),
            (history, regions) -> SplitPoints.uniform(regions)));
  }

  public static Map<String, Design> byName(int buckets) {
    Map<String, Design> m = new java.util.LinkedHashMap<>();
    for (Design d : all(buckets)) {
      m.put(d.name(), d);
    }
    return m;
  }

  /**
   * Events of {@code users} users (sequential numeric ids, as most systems assign them) over one
   * day from {@code startMillis}, in time order, with a heavy-tailed activity per user.
   */
  public static List<Event> workload(int users, int events, long startMillis, long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    List<Event> out = new ArrayList<>(events);
    long span = 86_400_000L;
    for (int i = 0; i < events; i++) {
      long ts = startMillis + (long) ((double) i / events * span);
      // Pareto-like pick: a few users are very active, most are not.
      int user = (int) Math.min(users - 1, Math.floor(users * Math.pow(rnd.nextDouble(), 3)));
      out.add(new Event(Integer.toString(10_000_000 + user), ts));
    }
    return out;
  }
}
