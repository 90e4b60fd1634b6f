package org.casebook.docs;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.casebook.docs.CorrectionState.FieldMark;

/**
 * The merge rule between people and crawlers, worked out on values (no storage): a person's edit
 * marks the fields it changes; any other write keeps the marked fields as the person left them and
 * changes the rest; every change of a document a person edited enters its history.
 */
final class CorrectionRules {
  /** History entries a document keeps; the oldest goes when a change would exceed it. */
  static final int HISTORY_ENTRIES = 100;

  /** Characters of a text value the history keeps. */
  static final int VALUE_CHARS = 200;

  /** Keywords of a list the history keeps. */
  static final int LIST_ITEMS = 20;

  /**
   * What a write stores once the rule is applied.
   *
   * @param values the document after the write, typed, in the type's order
   * @param state the corrections cell to write; null to leave it as it is
   * @param entry the history entry to write; null for none
   * @param evicted versions of history entries to remove (the oldest, beyond the limit)
   * @param changed whether any field's value changes
   */
  record Outcome(
      Map<String, Object> values,
      CorrectionState state,
      HistoryEntry entry,
      List<Long> evicted,
      boolean changed) {
    static Outcome plain(Map<String, Object> values) {
      return new Outcome(values, null, null, List.of(), true);
    }
  }

  private CorrectionRules() {}

  /**
   * The write of {@code next} over a live document holding {@code old}.
   *
   * @param offered the fields the write gives a value for (a whole-document write offers every
   *     field: a field it lacks it offers to remove)
   * @param state the document's corrections cell; null if no person ever edited it
   */
  static Outcome apply(
      DocType type,
      Map<String, Object> old,
      Map<String, Object> next,
      Set<String> offered,
      CorrectionState state,
      Author author,
      long version,
      long nowMs) {
    Map<String, Object> result = next;
    List<FieldChange> kept = new ArrayList<>();
    if (!author.person() && state != null && !state.marks().isEmpty()) {
      result = new LinkedHashMap<>();
      for (FieldDef f : type.fields()) {
        FieldMark mark = FieldDef.isCounter(f) ? null : state.marks().get(f.name());
        Object v = next.get(f.name());
        if (mark != null) {
          Object corrected = mark.value() == null ? null : DocCodec.decode(f.kind(), mark.value());
          if (offered.contains(f.name()) && !Objects.equals(v, corrected)) {
            kept.add(change(f, corrected, v, true));
          }
          v = corrected;
        }
        if (v != null) {
          result.put(f.name(), v);
        }
      }
    }
    Map<String, FieldMark> marks = new LinkedHashMap<>(state == null ? Map.of() : state.marks());
    List<FieldChange> changes = new ArrayList<>();
    for (FieldDef f : type.fields()) {
      Object before = old.get(f.name());
      Object after = result.get(f.name());
      if (Objects.equals(before, after)) {
        continue;
      }
      changes.add(change(f, before, after, false));
      if (author.person() && !FieldDef.isCounter(f)) {
        // Counters are not marked: views and likes keep counting, whoever set them last.
        marks.put(
            f.name(),
            new FieldMark(
                author.name(),
                nowMs,
                version,
                after == null ? null : DocCodec.encode(f.kind(), after)));
      }
    }
    if (changes.isEmpty() || (!author.person() && state == null)) {
      return new Outcome(result, null, null, List.of(), !changes.isEmpty());
    }
    changes.addAll(kept);
    return recorded(result, marks, state, author, version, nowMs, changes, List.of());
  }

  /**
   * Drops the correction of {@code field} (the caller checked there is one): the document keeps its
   * values — the next crawl is what changes the field.
   */
  static Outcome drop(
      Map<String, Object> values,
      CorrectionState state,
      String field,
      Author author,
      long version,
      long nowMs) {
    Map<String, FieldMark> marks = new LinkedHashMap<>(state.marks());
    marks.remove(field);
    return recorded(values, marks, state, author, version, nowMs, List.of(), List.of(field));
  }

  private static Outcome recorded(
      Map<String, Object> values,
      Map<String, FieldMark> marks,
      CorrectionState state,
      Author author,
      long version,
      long nowMs,
      List<FieldChange> changes,
      List<String> dropped) {
    List<Long> history = new ArrayList<>(state == null ? List.of() : state.history());
    history.add(version);
    List<Long> evicted = new ArrayList<>();
    while (history.size() > HISTORY_ENTRIES) {
      evicted.add(history.remove(0));
    }
    HistoryEntry entry =
        new HistoryEntry(
            version,
            Instant.ofEpochMilli(nowMs).toString(),
            author.person() ? HistoryEntry.PERSON : HistoryEntry.CRAWL,
            author.name(),
            changes,
            dropped);
    return new Outcome(
        values, new CorrectionState(marks, history), entry, evicted, !changes.isEmpty());
  }

  /** The marks of a document as a read shows them. */
  static Map<String, Correction> shown(CorrectionState state) {
    Map<String, Correction> out = new LinkedHashMap<>();
    if (state != null) {
      state
          .marks()
          .forEach(
              (field, m) ->
                  out.put(
                      field,
                      new Correction(
                          m.by(), Instant.ofEpochMilli(m.atMs()).toString(), m.version())));
    }
    return out;
  }

  private static FieldChange change(FieldDef f, Object before, Object after, boolean kept) {
    boolean[] cut = {false};
    Object b = before == null ? null : cut(FieldValues.external(f.kind(), before), cut);
    Object a = after == null ? null : cut(FieldValues.external(f.kind(), after), cut);
    return new FieldChange(f.name(), b, a, cut[0], kept);
  }

  /** The value shortened to what the history keeps; {@code cut[0]} set when it was shortened. */
  static Object cut(Object value, boolean[] cut) {
    if (value instanceof String s) {
      if (s.length() <= VALUE_CHARS) {
        return s;
      }
      cut[0] = true;
      int end = VALUE_CHARS;
      if (Character.isHighSurrogate(s.charAt(end - 1))) {
        end--; // never split a character in two
      }
      return s.substring(0, end);
    }
    if (value instanceof List<?> list) {
      List<Object> out = new ArrayList<>();
      for (Object item : list) {
        if (out.size() == LIST_ITEMS) {
          cut[0] = true;
          break;
        }
        out.add(cut(item, cut));
      }
      return out;
    }
    return value;
  }
}
