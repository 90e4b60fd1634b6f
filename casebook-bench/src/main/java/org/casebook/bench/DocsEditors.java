package org.casebook.bench;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.casebook.core.Threads;

/**
 * {@code bench docs}' concurrent editors, the same on both sides: each appends its tokens to the
 * corrections of a few hot documents over the version it read; afterwards every accepted token must
 * be stored (a missing one is a lost update).
 */
final class DocsEditors {
  /** One edit: read, change, write back over the version read, until it is accepted. */
  @FunctionalInterface
  interface Edit {
    void apply(String key, String token) throws Exception;
  }

  /** The tokens a document's corrections hold now. */
  @FunctionalInterface
  interface Tags {
    Set<String> of(String key) throws Exception;
  }

  record Figures(long accepted, long conflicts, long lost, double seconds, Latency latency) {
    String note() {
      return String.format(Locale.ROOT, "%d conflicts detected, %d lost updates", conflicts, lost);
    }
  }

  /** Per-side conflict counter (each side runs its editors once), set on each editor thread. */
  private static final ThreadLocal<AtomicLong> CONFLICTS = new ThreadLocal<>();

  private DocsEditors() {}

  /** Counts a detected conflict of the editor on this thread (an edit that must be redone). */
  static void conflict() {
    CONFLICTS.get().incrementAndGet();
  }

  /** {@code clients} editors, each making {@code edits} accepted edits on the hot documents. */
  static Figures run(int clients, int edits, List<String> hot, Edit edit, Tags tags)
      throws Exception {
    Map<String, Set<String>> accepted = new ConcurrentHashMap<>();
    hot.forEach(k -> accepted.put(k, ConcurrentHashMap.newKeySet()));
    AtomicLong conflicts = new AtomicLong();
    Latency latency = new Latency();
    ExecutorService pool = Executors.newFixedThreadPool(clients, Threads.daemon("docs-editor"));
    long t0 = System.nanoTime();
    try {
      List<Future<Latency>> futures = new ArrayList<>();
      for (int c = 0; c < clients; c++) {
        int client = c;
        futures.add(
            pool.submit(
                () -> {
                  CONFLICTS.set(conflicts);
                  Latency mine = new Latency();
                  SplittableRandom r = new SplittableRandom(client);
                  for (int i = 0; i < edits; i++) {
                    String key = hot.get(r.nextInt(hot.size()));
                    String token = "e" + client + "-" + i;
                    long s = System.nanoTime();
                    edit.apply(key, token);
                    mine.recordNanos(System.nanoTime() - s);
                    accepted.get(key).add(token);
                  }
                  return mine;
                }));
      }
      for (Future<Latency> f : futures) {
        latency.add(f.get());
      }
    } finally {
      pool.shutdown();
    }
    double secs = (System.nanoTime() - t0) / 1e9;
    long lost = 0;
    long total = 0;
    for (String k : hot) {
      Set<String> stored = tags.of(k);
      for (String token : accepted.get(k)) {
        total++;
        if (!stored.contains(token)) {
          lost++;
        }
      }
    }
    return new Figures(total, conflicts.get(), lost, secs, latency);
  }

  /** The edit tokens in a corrections text (each accepted edit appends one). */
  static Set<String> tokens(Object corrections) {
    Set<String> out = new HashSet<>();
    if (corrections != null) {
      for (String t : corrections.toString().split(" ", -1)) {
        if (!t.isEmpty()) {
          out.add(t);
        }
      }
    }
    return out;
  }
}
