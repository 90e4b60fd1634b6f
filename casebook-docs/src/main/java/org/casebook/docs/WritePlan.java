package org.casebook.docs;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A single-document write worked out against the row as read ({@link DocumentWrites#plan}), for
 * {@link DocumentStore#commit} to store: the whole document if the row is not live, else the cells
 * that {@code mode} and the {@code named} fields change.
 *
 * @param expected the version cell as read; null if the row was never written
 * @param version the version of this write (every cell it stores is stamped with it)
 * @param named the fields the request named (a PATCH writes only their families and counters)
 * @param values the document after the write, typed, in the type's order
 * @param oldKey the source-day index entry of the state read, or null
 * @param newKey the source-day index entry of the state written, or null
 * @param created whether the row held no live document (the write creates one)
 * @param corrections the corrections cell to write; null to leave it as it is
 * @param history the history entry to write with the change; null for none
 * @param evictedHistory versions of history entries to remove with the change
 * @param changed whether any field's value changes
 */
@SuppressWarnings("ArrayRecordComponent") // keys: compared with Arrays.equals, never mutated
record WritePlan(
    Target target,
    RowState expected,
    long version,
    WriteMode mode,
    Set<String> named,
    Map<String, Object> values,
    byte[] oldKey,
    byte[] newKey,
    boolean created,
    CorrectionState corrections,
    HistoryEntry history,
    List<Long> evictedHistory,
    boolean changed) {}
