package org.casebook.trails;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import org.casebook.trails.wire.LogLines;
import org.casebook.trails.wire.RejectsFile;

/**
 * What a Put ingest made of its lines: each line cleaned ({@link LogLines#clean}) and its event
 * written, or its rejection counted by category and kept. The file ingest ({@link TrailsIngest})
 * and the upload of a request body ({@link LinesIngest}) share it, so both accept, reject and count
 * the same lines alike. Thread-safe: the file ingest's workers feed one tally.
 */
final class LineTally {
  private final long rejectsKept;
  private final AtomicLong accepted = new AtomicLong();
  private final AtomicLong rejected = new AtomicLong();
  private final AtomicLong cells = new AtomicLong();
  private final ConcurrentLinkedQueue<RejectsFile.Reject> rejects = new ConcurrentLinkedQueue<>();
  private final Map<String, AtomicLong> reasons = new ConcurrentHashMap<>();

  /** The registry lines' types are looked up in (declared types included). */
  private final BehaviourLookup behaviours;

  /**
   * Keeping the first {@code rejectsKept} rejected lines fed (all are counted); fed in line order,
   * these are the first lines rejected.
   */
  LineTally(long rejectsKept, BehaviourLookup behaviours) {
    this.rejectsKept = rejectsKept;
    this.behaviours = behaviours;
  }

  /** Writes the event of line {@code lineNo}, or records why the line was rejected. */
  void clean(IngestStore.Writers writers, long lineNo, byte[] raw) {
    LogLines.Cleaned c = LogLines.clean(raw, raw.length, behaviours);
    if (c.event() != null) {
      cells.addAndGet(writers.write(c.event()));
      accepted.incrementAndGet();
      return;
    }
    if (rejected.incrementAndGet() <= rejectsKept) {
      rejects.add(new RejectsFile.Reject(lineNo, c.reason(), c.shown()));
    }
    reasons.computeIfAbsent(c.category(), k -> new AtomicLong()).incrementAndGet();
  }

  long accepted() {
    return accepted.get();
  }

  long rejected() {
    return rejected.get();
  }

  long cells() {
    return cells.get();
  }

  /**
   * The rejected lines kept, in the order fed: line order from one thread (the upload); the file
   * ingest's workers feed chunks out of order, and {@link RejectsFile#write} sorts.
   */
  List<RejectsFile.Reject> rejects() {
    return new ArrayList<>(rejects);
  }

  /** Rejected lines by category, categories in order. */
  Map<String, Long> reasons() {
    Map<String, Long> counts = new TreeMap<>();
    reasons.forEach((k, v) -> counts.put(k, v.get()));
    return counts;
  }
}
