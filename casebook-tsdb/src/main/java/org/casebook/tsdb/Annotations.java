package org.casebook.tsdb;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Predicate;
import org.casebook.core.ConflictException;
import org.casebook.core.InvalidInputException;

/**
 * OpenTSDB's annotations: create, merge or overwrite, read and delete one, delete a range, and the
 * notes a query answer carries (each group's series' notes, and the global ones when asked).
 */
final class Annotations {
  /** Check-and-put attempts of one save before it is a conflict (writers racing on one note). */
  private static final int ATTEMPTS = 5;

  private final AnnotationStore store;
  private final QueryRunner queries;
  private final Uids uids;

  Annotations(AnnotationStore store, QueryRunner queries, Uids uids) {
    this.store = store;
    this.queries = queries;
    this.uids = uids;
  }

  /**
   * Stores {@code change} as OpenTSDB's {@code POST} ({@code overwrite} false: merged into the
   * stored note) or {@code PUT} (replaces it): the note as stored, or empty when the change changes
   * nothing (OpenTSDB's {@code 304 Not Modified}: nothing is written).
   */
  Optional<Annotation> save(AnnotationChange change, boolean overwrite) {
    byte[] row = rowOf(change);
    if (!change.changesAnything()) {
      return Optional.empty();
    }
    for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
      Optional<AnnotationStore.StoredNote> stored = store.get(row);
      Annotation next =
          change.applyTo(stored.map(AnnotationStore.StoredNote::note).orElse(null), overwrite);
      if (store.replace(row, stored.map(AnnotationStore.StoredNote::cell).orElse(null), next)) {
        return Optional.of(next);
      }
    }
    throw new ConflictException(
        "Failed to save the Annotation to storage: it was modified by another writer meanwhile");
  }

  /**
   * Checks every change of a bulk request before any is written, then saves each: the notes as
   * stored, those that change nothing left out (as OpenTSDB's bulk call leaves them out).
   */
  List<Annotation> saveAll(List<AnnotationChange> changes, boolean overwrite) {
    for (int i = 0; i < changes.size(); i++) {
      rowOf(changes.get(i));
    }
    List<Annotation> out = new ArrayList<>();
    for (AnnotationChange c : changes) {
      save(c, overwrite).ifPresent(out::add);
    }
    return out;
  }

  /** The note of {@code tsuid} (null or empty: global) at {@code startTime}. */
  Optional<Annotation> get(String tsuid, long startTime) {
    return store.get(row(tsuid, startTime)).map(AnnotationStore.StoredNote::note);
  }

  /** Deletes the note of {@code tsuid} (null or empty: global) at {@code startTime}, if any. */
  void delete(String tsuid, long startTime) {
    byte[] row = row(tsuid, startTime);
    for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
      Optional<AnnotationStore.StoredNote> stored = store.get(row);
      if (stored.isEmpty() || store.delete(row, stored.get())) {
        return;
      }
    }
    throw new ConflictException(
        "Failed to delete the Annotation: it was modified by another writer meanwhile");
  }

  /**
   * Deletes the notes starting in {@code [fromMs, toMs]}: the global ones with {@code global}, and
   * those of each of {@code tsuids}. Returns how many.
   */
  long deleteRange(List<String> tsuids, boolean global, long fromMs, long toMs) {
    if (toMs < fromMs) {
      throw new InvalidInputException(
          "endTime", "The end timestamp cannot be less than the start timestamp");
    }
    List<byte[][]> series = new ArrayList<>();
    for (String t : tsuids) {
      series.add(AnnotationKeys.parseTsuid(t, "tsuids"));
    }
    long deleted = 0;
    if (global) {
      deleted += deleteIn(AnnotationKeys.globals(fromMs, toMs), row -> true);
    }
    for (byte[][] s : series) {
      byte[] tags = s[1];
      deleted +=
          deleteIn(
              AnnotationKeys.series(s[0], fromMs, toMs),
              row -> Arrays.equals(AnnotationKeys.tags(row), tags));
    }
    return deleted;
  }

  private int deleteIn(org.casebook.core.key.KeyRange range, Predicate<byte[]> keep) {
    return store.deleteAll(store.scan(range, keep));
  }

  /**
   * The global notes of a query over {@code [fromMs, toMs]}: starting in it and, when they have an
   * end, ending in it (OpenTSDB's filter), by start time.
   */
  List<Annotation> globals(long fromMs, long toMs) {
    List<Annotation> out = new ArrayList<>();
    for (AnnotationStore.Row r : store.scan(AnnotationKeys.globals(fromMs, toMs), row -> true)) {
      if (r.note().endMs() <= toMs) {
        out.add(r.note());
      }
    }
    out.sort(Comparator.comparingLong(Annotation::startMs));
    return out;
  }

  /**
   * The notes of each group of a sub-query's answer: those of the series the group aggregates (the
   * series the filters select with the group's group-by values; with {@code none}, the series
   * itself) starting in {@code [fromMs, toMs]}, by start time.
   */
  List<List<Annotation>> forGroups(SubQuery sub, List<QueryResult> groups, long fromMs, long toMs) {
    List<List<Annotation>> out = new ArrayList<>(groups.size());
    if (groups.isEmpty()) {
      return out;
    }
    List<AnnotationStore.Row> rows =
        store.scan(AnnotationKeys.series(queries.metricId(sub.metric()), fromMs, toMs), r -> true);
    Predicate<Map<String, String>> selects = QueryEngine.selector(sub, queries.uidOrder());
    List<String> groupBy =
        sub.filters().stream()
            .filter(TagFilter::groupBy)
            .map(TagFilter::tagKey)
            .distinct()
            .toList();
    boolean perSeries = sub.aggregator().function() == Aggregator.Function.NONE;
    List<Map<String, String>> tags = new ArrayList<>(rows.size());
    for (AnnotationStore.Row r : rows) {
      tags.add(queries.tagNames(ByteBuffer.wrap(AnnotationKeys.tags(r.key()))));
    }
    for (QueryResult g : groups) {
      List<Annotation> notes = new ArrayList<>();
      for (int i = 0; i < rows.size(); i++) {
        Map<String, String> t = tags.get(i);
        boolean member =
            perSeries
                ? t.equals(g.tags())
                : selects.test(t)
                    && groupBy.stream().allMatch(k -> Objects.equals(t.get(k), g.tags().get(k)));
        if (member) {
          notes.add(rows.get(i).note());
        }
      }
      notes.sort(Comparator.comparingLong(Annotation::startMs));
      out.add(notes);
    }
    return out;
  }

  /** The row of a change, checked: its start time is set and its series' ids have names. */
  private byte[] rowOf(AnnotationChange c) {
    if (c.startTime() == null || c.startTime() < 1) {
      throw new InvalidInputException("startTime", "The start timestamp has not been set");
    }
    return row(c.tsuid(), c.startTime());
  }

  private byte[] row(String tsuid, long startTime) {
    if (startTime < 1) {
      throw new InvalidInputException("startTime", "The start timestamp has not been set");
    }
    String t = tsuid == null ? "" : tsuid;
    if (!t.isEmpty()) {
      // A note on ids without names could never be shown with its series: refuse it now.
      byte[][] parts = AnnotationKeys.parseTsuid(t, "tsuid");
      uids.name(UidKind.METRIC, parts[0]);
      for (byte[][] pair : TsdbKeys.tagIds(parts[1])) {
        uids.name(UidKind.TAGK, pair[0]);
        uids.name(UidKind.TAGV, pair[1]);
      }
    }
    return AnnotationKeys.row(t, Annotation.toMs(startTime));
  }
}
