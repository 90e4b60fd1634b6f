package org.casebook.frontier;

import java.util.LinkedHashMap;
import java.util.Map;

/** Counter deltas of one host (or channel) gathered over a batch, written as one Increment. */
final class Counts {
  static final String PUT = "put";
  static final String NEW = "new";
  static final String DUPLICATE = "dup";
  static final String OUT = "out";
  static final String ACK = "ack";
  static final String FAILED = "fail";

  /** Net change of the queue that day: the level at a day's end is derived from it. */
  static final String QUEUED = "queued";

  long queued;
  long completed;
  final Map<String, Long> daily = new LinkedHashMap<>();

  void add(String counter, long n) {
    daily.merge(counter, n, Long::sum);
  }

  void queued(long n) {
    queued += n;
    add(QUEUED, n);
  }

  void addAll(Counts o) {
    queued += o.queued;
    completed += o.completed;
    o.daily.forEach(this::add);
  }

  boolean isEmpty() {
    return queued == 0 && completed == 0 && daily.values().stream().allMatch(v -> v == 0);
  }
}
