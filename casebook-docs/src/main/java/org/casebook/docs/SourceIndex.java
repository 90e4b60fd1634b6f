package org.casebook.docs;

import java.time.Instant;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import org.casebook.core.InvalidInputException;
import org.casebook.core.key.KeyRange;
import org.casebook.core.page.Page;
import org.casebook.core.page.PageRequest;
import org.casebook.docs.DocsKeys.Position;

/**
 * The listing by source site and day, and its repair. Entries are checked against the documents
 * they point to when read: an entry whose document is gone or now maps to another entry (left by a
 * writer that lost its race or crashed) is skipped and removed, naming the document's version as
 * the newest it may remove, so an entry being written for a newer state survives.
 */
final class SourceIndex {
  /** Index entries read per round while filling a page (stale ones are skipped). */
  private static final int SCAN_BATCH = 256;

  private final DocumentStore documents;
  private final IndexStore index;
  private final Targets targets;

  SourceIndex(DocumentStore documents, IndexStore index, Targets targets) {
    this.documents = documents;
    this.index = index;
    this.targets = targets;
  }

  /** A calendar day (UTC) as the index stores it. */
  static int day(String value) {
    InvalidInputException.check(value != null, "day", "day is required (YYYY-MM-DD)");
    try {
      return (int) LocalDate.parse(value).toEpochDay();
    } catch (DateTimeParseException e) {
      throw new InvalidInputException(
          "day", "day must be a date like 2026-09-01, got '" + value + "'");
    }
  }

  static String source(String value) {
    InvalidInputException.check(value != null, "source", "source (a site's host) is required");
    return DocLimits.id(value, "source").toLowerCase(Locale.ROOT);
  }

  /** Documents of {@code type} from {@code source} created on {@code day}, oldest first. */
  Page<Document> list(DocType type, String source, int day, PageRequest page) {
    InvalidInputException.check(
        type.indexedBySource(),
        "source",
        type.name() + " documents are not listed by source (the type has no url and created)");
    KeyRange range = DocsKeys.SOURCE_DAY.range(source, type.name(), day);
    byte[] start = range.start();
    boolean inclusive = true;
    if (page.cursor().isPresent()) {
      Position p = DocsKeys.parseCursor(DocsKeys.SOURCE_SCOPE, page.cursor().get());
      start = DocsKeys.SOURCE_DAY.encode(source, type.name(), day, p.created(), p.id());
      inclusive = false;
    }
    List<Document> found = new ArrayList<>();
    while (found.size() < page.fetchSize()) {
      List<byte[]> keys =
          index.keys(new RowRange(start, inclusive, range.stop(), false, false, SCAN_BATCH));
      found.addAll(verified(type, keys, page.fetchSize() - found.size()));
      if (keys.size() < SCAN_BATCH) {
        break;
      }
      start = keys.get(keys.size() - 1);
      inclusive = false;
    }
    return Page.of(
        found,
        page.limit(),
        d -> DocsKeys.cursor(DocsKeys.SOURCE_SCOPE, new Position(createdOf(d), d.id())));
  }

  private static long createdOf(Document d) {
    return Instant.parse((String) d.fields().get("created")).toEpochMilli();
  }

  /** The documents the entries point to, where the entry is the document's current one. */
  private List<Document> verified(DocType type, List<byte[]> keys, int wanted) {
    List<Target> pointed = pointedTo(type, keys);
    List<Optional<StoredRow>> current = documents.readAll(type, targets.table(type), rows(pointed));
    List<Document> out = new ArrayList<>();
    for (int i = 0; i < keys.size(); i++) {
      Optional<StoredRow> row = current.get(i);
      if (row.isEmpty()) {
        continue; // a create that has not committed yet, or never will: not listed
      }
      if (isCurrent(keys.get(i), pointed.get(i), row.get())) {
        if (out.size() < wanted) {
          out.add(Targets.document(pointed.get(i), row.get()));
        }
      } else {
        index.delete(keys.get(i), row.get().version());
      }
    }
    return out;
  }

  private List<Target> pointedTo(DocType type, List<byte[]> keys) {
    List<Target> out = new ArrayList<>(keys.size());
    for (byte[] key : keys) {
      out.add(targets.of(type, DocsKeys.SOURCE_DAY.decode(key).string("id")));
    }
    return out;
  }

  private static List<byte[]> rows(List<Target> pointed) {
    return pointed.stream().map(Target::row).toList();
  }

  /** Whether {@code key} is the entry of the live state {@code row} of {@code t}. */
  private static boolean isCurrent(byte[] key, Target t, StoredRow row) {
    return row.live() && Arrays.equals(key, Targets.indexEntry(t, row.values()));
  }

  /**
   * Makes the index of {@code type} exactly the entries of its live documents: removes stale
   * entries (as the listing does) and writes any missing one (none should be; a repair after a
   * restore or a bug). Safe while writers run: every write it makes is bounded by the version it
   * read.
   */
  IndexRepair repair(DocType type) {
    if (!type.indexedBySource()) {
      return new IndexRepair(type.name(), 0, 0, 0);
    }
    long checked = 0;
    long stale = 0;
    Set<String> present = new HashSet<>();
    List<byte[]> mine = new ArrayList<>();
    for (byte[] key : index.keys(RowRange.all())) {
      if (DocsKeys.SOURCE_DAY.decode(key).string("type").equals(type.name())) {
        mine.add(key);
      }
    }
    for (int from = 0; from < mine.size(); from += SCAN_BATCH) {
      List<byte[]> batch = mine.subList(from, Math.min(mine.size(), from + SCAN_BATCH));
      stale += removeStale(type, batch, present);
      checked += batch.size();
    }
    long added = 0;
    for (StoredRow row : documents.scanLive(type, targets.table(type), RowRange.all())) {
      byte[] key = Targets.indexEntry(targets.ofRow(type, row.row()), row.values());
      if (key != null && !present.contains(hex(key))) {
        index.put(key, row.version());
        added++;
      }
    }
    return new IndexRepair(type.name(), checked, stale, added);
  }

  /** Removes the stale entries of {@code keys}, adds the current ones to {@code present}. */
  private int removeStale(DocType type, List<byte[]> keys, Set<String> present) {
    List<Target> pointed = pointedTo(type, keys);
    List<Optional<StoredRow>> current = documents.readAll(type, targets.table(type), rows(pointed));
    int stale = 0;
    for (int i = 0; i < keys.size(); i++) {
      Optional<StoredRow> row = current.get(i);
      if (row.isEmpty()) {
        continue;
      }
      if (isCurrent(keys.get(i), pointed.get(i), row.get())) {
        present.add(hex(keys.get(i)));
      } else {
        index.delete(keys.get(i), row.get().version());
        stale++;
      }
    }
    return stale;
  }

  private static String hex(byte[] key) {
    return HexFormat.of().formatHex(key);
  }
}
