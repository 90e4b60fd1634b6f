package org.casebook.trails;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;
import org.casebook.core.ConflictException;
import org.casebook.core.InvalidInputException;
import org.casebook.core.NotFoundException;

/**
 * The behaviours a service knows: the four built-ins and those declared in the registry table, read
 * whole into a {@link Behaviours} snapshot. A declaration made by another process is seen within
 * {@link #REFRESH_NANOS} (every lookup reloads a snapshot older than that), and at once by a lookup
 * of a label or id the snapshot lacks (at most one such reload per {@link #MISS_RELOAD_NANOS}, so a
 * log full of unknown types does not read the registry per line). Thread-safe.
 */
public final class BehaviourRegistry implements BehaviourLookup {
  /** The longest a snapshot is used before it is read again: 10 s. */
  static final long REFRESH_NANOS = 10_000_000_000L;

  /** The shortest time between two reloads for a label or id the snapshot lacks: 200 ms. */
  static final long MISS_RELOAD_NANOS = 200_000_000L;

  /** Tries of a declaration that keeps meeting concurrent ones, before it gives up. */
  private static final int MAX_ATTEMPTS = 300;

  private final BehaviourStore store;
  private final ReentrantLock loading = new ReentrantLock();
  private volatile Behaviours current;
  private volatile long loadedAt;

  BehaviourRegistry(BehaviourStore store) {
    this.store = Objects.requireNonNull(store, "store is null");
  }

  /*
   * Refresh times are monotonic nanoseconds, not the context's clock: they bound how stale a
   * snapshot is, which a test's frozen or moved clock must not stretch.
   */
  private static long now() {
    return System.nanoTime();
  }

  /** Reads the registry now (one thread at a time; the others keep the snapshot they have). */
  Behaviours reload() {
    loading.lock();
    try {
      long started = now();
      current = store.load();
      loadedAt = started;
      return current;
    } finally {
      loading.unlock();
    }
  }

  @Override
  public Behaviours snapshot() {
    Behaviours s = current;
    if (s == null) {
      return reload(); // the first use reads the registry, not the service's construction
    }
    if (now() - loadedAt > REFRESH_NANOS && loading.tryLock()) {
      try {
        if (now() - loadedAt > REFRESH_NANOS) {
          s = reload();
        }
      } finally {
        loading.unlock();
      }
    }
    return s;
  }

  @Override
  public Optional<Behaviour> byLabel(String label) {
    Optional<Behaviour> b = snapshot().byLabel(label);
    if (b.isPresent() || !reloadOnMiss()) {
      return b;
    }
    return current.byLabel(label);
  }

  @Override
  public Optional<Behaviour> byId(int id) {
    Optional<Behaviour> b = snapshot().byId(id);
    if (b.isPresent() || !reloadOnMiss()) {
      return b;
    }
    return current.byId(id);
  }

  /** Reloads for a miss unless the last load is too recent; whether it reloaded. */
  private boolean reloadOnMiss() {
    if (now() - loadedAt < MISS_RELOAD_NANOS) {
      return false;
    }
    loading.lock();
    try {
      if (now() - loadedAt < MISS_RELOAD_NANOS) {
        return true; // another thread has just reloaded
      }
      reload();
      return true;
    } finally {
      loading.unlock();
    }
  }

  /** A behaviour by name, read from the registry now; a 404 if neither built in nor declared. */
  public Behaviour get(String name) {
    Optional<Behaviour> b = reload().byLabel(name);
    return b.orElseThrow(() -> new NotFoundException("no behaviour named " + name));
  }

  /** Every behaviour, by id, read from the registry now. */
  public List<Behaviour> list() {
    return reload().all();
  }

  /**
   * Declares {@code name} with {@code fields}, or adds fields to it: a new name gets the lowest
   * free id from 5 (claimed with check-and-mutate, so concurrent declarations never share one); the
   * same fields again change nothing and answer the same id; more fields are added after the stored
   * ones.
   *
   * @throws InvalidInputException on {@code name} (not lower-case {@code [a-z][a-z0-9_]{0,31}}) or
   *     {@code fields} (none, over {@link Behaviour#MAX_FIELDS}, a bad or reserved name)
   * @throws ConflictException naming the field when a built-in is named, a stored field's kind
   *     changes or a stored field is left out (stored data depends on both), or no id is left
   */
  public Behaviour declare(String name, List<Behaviour.Field> fields) {
    Behaviour.checkName(name);
    if (Behaviours.BUILT_INS.byLabel(name).isPresent()) {
      throw new ConflictException(
          "name: '" + name + "' is a built-in behaviour; its fields are fixed");
    }
    Behaviour.checkFields(fields);
    for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      Optional<BehaviourStore.Stored> stored = store.read(name);
      if (stored.isPresent()) {
        Behaviour old = stored.get().behaviour();
        List<Behaviour.Field> merged = merge(old, fields);
        if (merged.size() == old.fields().size()) {
          return refreshed(old);
        }
        if (store.replace(stored.get().raw(), Behaviour.declared(old.id(), name, merged))) {
          return refreshed(Behaviour.declared(old.id(), name, merged));
        }
        continue;
      }
      Map<Integer, String> claims = store.claims();
      int id = leftOverClaim(claims, name);
      boolean claimedNow = false;
      if (id < 0) {
        id = lowestFree(claims, name);
        if (!store.claim(id, name)) {
          continue;
        }
        claimedNow = true;
      }
      Behaviour declared = Behaviour.declared(id, name, fields);
      if (store.create(declared)) {
        return refreshed(declared);
      }
      // Another declaration of the same name stored first; give the id back unless it is theirs.
      int stored2 = store.read(name).map(s -> s.behaviour().id()).orElse(-1);
      if (claimedNow && stored2 != id) {
        store.release(id, name);
      }
    }
    throw new ConflictException(
        "name: the declaration of '" + name + "' kept meeting concurrent ones; try again");
  }

  private Behaviour refreshed(Behaviour b) {
    reload();
    return b;
  }

  /**
   * The stored fields, then those of {@code wanted} not stored yet; a conflict when a stored field
   * is left out or given another kind.
   */
  private static List<Behaviour.Field> merge(Behaviour old, List<Behaviour.Field> wanted) {
    Set<String> wantedNames = new LinkedHashSet<>();
    wanted.forEach(f -> wantedNames.add(f.name()));
    for (Behaviour.Field f : old.fields()) {
      if (!wantedNames.contains(f.name())) {
        throw new ConflictException(
            "fields: "
                + old.label()
                + "."
                + f.name()
                + " is declared and cannot be removed (stored records hold it); declare every"
                + " field again with the new ones");
      }
    }
    List<Behaviour.Field> merged = new ArrayList<>(old.fields());
    for (Behaviour.Field f : wanted) {
      Optional<Behaviour.Field> was = old.field(f.name());
      if (was.isPresent() && was.get().kind() != f.kind()) {
        throw new ConflictException(
            "fields: "
                + old.label()
                + "."
                + f.name()
                + " is "
                + was.get().kind()
                + " and cannot become "
                + f.kind()
                + " (stored records hold it)");
      }
      if (was.isEmpty()) {
        merged.add(f);
      }
    }
    Behaviour.checkFields(merged);
    return merged;
  }

  /** An id {@code name} claimed before without storing its definition (a crash), or -1. */
  private static int leftOverClaim(Map<Integer, String> claims, String name) {
    for (Map.Entry<Integer, String> c : claims.entrySet()) {
      if (c.getValue().equals(name)) {
        return c.getKey();
      }
    }
    return -1;
  }

  private static int lowestFree(Map<Integer, String> claims, String name) {
    for (int id = Behaviour.FIRST_DECLARED_ID; id <= Behaviour.LAST_ID; id++) {
      if (!claims.containsKey(id)) {
        return id;
      }
    }
    throw new ConflictException(
        "name: no behaviour id is left for '"
            + name.toLowerCase(Locale.ROOT)
            + "'; ids 5..255 are all declared");
  }
}
