package org.casebook.tsdb;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.casebook.core.ConflictException;
import org.casebook.core.InvalidInputException;
import org.casebook.core.NotFoundException;
import org.casebook.core.StorageException;

/**
 * Names ↔ fixed-width ids, cached. Assignment follows OpenTSDB's order, which makes it safe under
 * racing writers and crashes:
 *
 * <ol>
 *   <li>a new id from the kind's counter (an HBase Increment: never handed out twice);
 *   <li>the reverse mapping id → name;
 *   <li>the forward mapping name → id, only if the name has none (check-and-put).
 * </ol>
 *
 * Two writers racing on one new name both get an id, one wins step 3 and the other reads the
 * winner's id; the loser's id is left with a reverse mapping no data row uses. A crash between
 * steps leaves at most such an unused id — never a name whose id cannot be read back, because a
 * data row is written only with an id whose forward (and so reverse) mapping exists.
 */
final class Uids {
  private final UidStore store;

  /** Per kind: name → id, and id (as a 3-byte int) → name. */
  private final List<ConcurrentHashMap<String, byte[]>> ids = perKind();

  private final List<ConcurrentHashMap<Integer, String>> names = perKind();

  private static <K, V> List<ConcurrentHashMap<K, V>> perKind() {
    List<ConcurrentHashMap<K, V>> maps = new java.util.ArrayList<>();
    for (int i = 0; i < UidKind.values().length; i++) {
      maps.add(new ConcurrentHashMap<>());
    }
    return List.copyOf(maps);
  }

  Uids(UidStore store) {
    this.store = store;
  }

  /** The id of an existing name. */
  Optional<byte[]> find(UidKind kind, String name) {
    byte[] cached = ids.get(kind.ordinal()).get(name);
    if (cached != null) {
      return Optional.of(cached);
    }
    Optional<byte[]> id = store.uid(kind, name);
    id.ifPresent(v -> remember(kind, name, v));
    return id;
  }

  /** The id of {@code name}, assigning one if it has none. */
  byte[] getOrAssign(UidKind kind, String name) {
    Optional<byte[]> existing = find(kind, name);
    if (existing.isPresent()) {
      return existing.get();
    }
    return assign(kind, name, false);
  }

  /**
   * Assigns an id to a new name. With {@code mustBeNew}, a name that already has one is a {@link
   * ConflictException} (the {@code uid assign} command); otherwise its id is returned.
   */
  byte[] assign(UidKind kind, String name, boolean mustBeNew) {
    if (mustBeNew && store.uid(kind, name).isPresent()) {
      throw new ConflictException(kind.singular() + " '" + name + "' already has an id");
    }
    long next = store.nextUid(kind);
    if (next > TsdbKeys.MAX_UID) {
      throw new InvalidInputException(
          kind.singular(), "no " + kind.singular() + " ids left (" + TsdbKeys.MAX_UID + " used)");
    }
    byte[] id = TsdbKeys.uid(next);
    store.putReverse(kind, id, name);
    if (store.putForwardIfAbsent(kind, name, id)) {
      remember(kind, name, id);
      return id;
    }
    if (mustBeNew) {
      throw new ConflictException(kind.singular() + " '" + name + "' already has an id");
    }
    // Lost the race: the winner's id is the id.
    byte[] winner =
        store
            .uid(kind, name)
            .orElseThrow(
                () ->
                    StorageException.of(
                        "read the id of " + name,
                        new java.io.IOException("the forward mapping vanished during assignment")));
    remember(kind, name, winner);
    return winner;
  }

  /** The name of an id found in a data row. */
  String name(UidKind kind, byte[] id) {
    int key = (int) TsdbKeys.uidValue(id);
    String cached = names.get(kind.ordinal()).get(key);
    if (cached != null) {
      return cached;
    }
    String name =
        store
            .name(kind, id)
            .orElseThrow(
                () ->
                    new NotFoundException(
                        "no name for "
                            + kind.singular()
                            + " id "
                            + TsdbKeys.uidValue(id)
                            + " (a broken row)"));
    names.get(kind.ordinal()).put(key, name);
    return name;
  }

  /**
   * Renames: the new name must be free; the id keeps its data. The forward mapping of the new name
   * is written first (so the id never has no name), then the reverse, then the old name removed.
   */
  void rename(UidKind kind, String oldName, String newName) {
    byte[] id =
        store
            .uid(kind, oldName)
            .orElseThrow(
                () -> new NotFoundException("no " + kind.singular() + " named '" + oldName + "'"));
    if (!store.putForwardIfAbsent(kind, newName, id)) {
      throw new ConflictException(kind.singular() + " '" + newName + "' already exists");
    }
    store.putReverse(kind, id, newName);
    store.deleteForward(kind, oldName, id);
    ids.get(kind.ordinal()).remove(oldName);
    names.get(kind.ordinal()).remove((int) TsdbKeys.uidValue(id));
    remember(kind, newName, id);
  }

  private void remember(UidKind kind, String name, byte[] id) {
    ids.get(kind.ordinal()).put(name, id);
    names.get(kind.ordinal()).put((int) TsdbKeys.uidValue(id), name);
  }

  /** The cached id of a name, without a storage read (null if not cached). */
  byte[] cached(UidKind kind, String name) {
    return ids.get(kind.ordinal()).get(name);
  }
}
