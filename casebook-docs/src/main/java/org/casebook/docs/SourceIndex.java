package org.casebook.docs;

import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Scan;
import org.casebook.core.InvalidInputException;
import org.casebook.core.key.KeyLayout;
import org.casebook.core.key.KeyRange;
import org.casebook.core.page.Page;
import org.casebook.core.page.PageRequest;
import org.casebook.docs.DocsKeys.Position;
import org.casebook.docs.DocsStore.StoredRow;
import org.casebook.docs.Documents.Target;

/**
 * The listing by source site and day, and its repair. Entries are checked against the documents
 * they point to when read: an entry whose document is gone or now maps to another entry (left by a
 * writer that lost its race or crashed) is skipped and removed, naming the document's version as
 * the newest it may remove, so an entry being written for a newer state survives.
 */
final class SourceIndex {
  /** Index entries read per round while filling a page (stale ones are skipped). */
  private static final int SCAN_BATCH = 256;

  private final DocsStore store;
  private final Documents documents;

  SourceIndex(DocsStore store, Documents documents) {
    this.store = store;
    this.documents = documents;
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
    return DocLimits.id(value, "source").toLowerCase(java.util.Locale.ROOT);
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
      Scan scan =
          new Scan()
              .withStartRow(start, inclusive)
              .withStopRow(range.stop(), false)
              .setLimit(SCAN_BATCH)
              .setCaching(SCAN_BATCH);
      List<byte[]> keys = store.indexKeys(scan);
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
    return java.time.Instant.parse((String) d.fields().get("created")).toEpochMilli();
  }

  /** The documents the entries point to, where the entry is the document's current one. */
  private List<Document> verified(DocType type, List<byte[]> keys, int wanted) {
    List<Target> targets = new ArrayList<>(keys.size());
    List<byte[]> rows = new ArrayList<>(keys.size());
    for (byte[] key : keys) {
      Target t = documents.target(type, DocsKeys.SOURCE_DAY.decode(key).string("id"));
      targets.add(t);
      rows.add(t.row());
    }
    List<Optional<StoredRow>> current = store.readAll(store.schema().table(type.name()), rows);
    List<Document> out = new ArrayList<>();
    for (int i = 0; i < keys.size(); i++) {
      Optional<StoredRow> row = current.get(i);
      if (row.isEmpty()) {
        continue; // a create that has not committed yet, or never will: not listed
      }
      var values = Documents.values(type, row.get());
      if (row.get().live()
          && Arrays.equals(keys.get(i), Documents.indexKey(targets.get(i), values))) {
        if (out.size() < wanted) {
          out.add(Documents.document(targets.get(i), row.get().version(), values));
        }
      } else {
        store.deleteIndex(keys.get(i), row.get().version());
      }
    }
    return out;
  }

  /** What a repair did. */
  record Repair(long entriesChecked, long staleRemoved, long missingAdded) {}

  /**
   * Makes the index of {@code type} exactly the entries of its live documents: removes stale
   * entries (as the listing does) and writes any missing one (none should be; a repair after a
   * restore or a bug). Safe while writers run: every write it makes is bounded by the version it
   * read.
   */
  Repair repair(DocType type) {
    if (!type.indexedBySource()) {
      return new Repair(0, 0, 0);
    }
    long checked = 0;
    long stale = 0;
    Set<String> present = new HashSet<>();
    KeyLayout layout = DocsKeys.SOURCE_DAY;
    List<byte[]> all = store.indexKeys(new Scan().setCaching(1000));
    List<byte[]> mine = new ArrayList<>();
    for (byte[] key : all) {
      if (layout.decode(key).string("type").equals(type.name())) {
        mine.add(key);
      }
    }
    for (int from = 0; from < mine.size(); from += SCAN_BATCH) {
      List<byte[]> batch = mine.subList(from, Math.min(mine.size(), from + SCAN_BATCH));
      int before = countStale(type, batch, present);
      stale += before;
      checked += batch.size();
    }
    long added = 0;
    Scan docs = Documents.liveRows(new Scan()).setCaching(500);
    for (Result r : store.scan(store.schema().table(type.name()), docs)) {
      StoredRow row = DocsStore.rowOf(r).orElseThrow();
      Target t = targetOfRow(type, r.getRow());
      byte[] key = Documents.indexKey(t, Documents.values(type, row));
      if (key != null && !present.contains(hex(key))) {
        store.putIndex(key, row.version());
        added++;
      }
    }
    return new Repair(checked, stale, added);
  }

  private Target targetOfRow(DocType type, byte[] row) {
    if (type.isChild()) {
      var k = DocsKeys.COMMENT.decode(row);
      return documents.commentTarget(
          type,
          new DocIds.CommentId(
              k.string("cid"), k.number("created"), k.string("parentType"), k.string("parentId")));
    }
    return documents.target(type, DocsKeys.DOC.decode(row).string("id"));
  }

  private int countStale(DocType type, List<byte[]> keys, Set<String> present) {
    List<Target> targets = new ArrayList<>();
    List<byte[]> rows = new ArrayList<>();
    for (byte[] key : keys) {
      Target t = documents.target(type, DocsKeys.SOURCE_DAY.decode(key).string("id"));
      targets.add(t);
      rows.add(t.row());
    }
    List<Optional<StoredRow>> current = store.readAll(store.schema().table(type.name()), rows);
    int stale = 0;
    for (int i = 0; i < keys.size(); i++) {
      Optional<StoredRow> row = current.get(i);
      if (row.isEmpty()) {
        continue;
      }
      boolean valid =
          row.get().live()
              && Arrays.equals(
                  keys.get(i),
                  Documents.indexKey(targets.get(i), Documents.values(type, row.get())));
      if (valid) {
        present.add(hex(keys.get(i)));
      } else {
        store.deleteIndex(keys.get(i), row.get().version());
        stale++;
      }
    }
    return stale;
  }

  private static String hex(byte[] key) {
    return org.apache.hadoop.hbase.util.Bytes.toHex(key);
  }
}
