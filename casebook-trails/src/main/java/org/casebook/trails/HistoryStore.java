package org.casebook.trails;

import static org.casebook.trails.TrailsSchema.E;
import static org.casebook.trails.TrailsSchema.H;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.ColumnPaginationFilter;
import org.apache.hadoop.hbase.filter.ColumnPrefixFilter;
import org.casebook.core.StorageException;
import org.casebook.core.SystemContext;
import org.casebook.core.key.KeyBuilder;
import org.casebook.core.key.KeyRange;
import org.casebook.core.page.Cursors;
import org.casebook.core.page.Page;
import org.casebook.core.page.PageRequest;

/**
 * Every read of the seed-004 history tables: {@code history_tall} (one row per record) and {@code
 * history_wide} (one row per user, one column per record). Values decode through {@link
 * HistoryCodec}.
 */
final class HistoryStore {
  private final Connection connection;
  private final TrailsSchema schema;

  private final BehaviourLookup behaviours;

  HistoryStore(SystemContext context, TrailsSchema schema, BehaviourLookup behaviours) {
    this.connection = context.connection();
    this.schema = schema;
    this.behaviours = behaviours;
  }

  /** An event and where it sits in a history design (for the next page's cursor). */
  private record Positioned(Event event, TrailsKeys.Position position) {}

  /** One page of a user's records, newest first, from either history design. */
  Page<Event> latest(String uid, PageRequest page, HistoryLayout layout) {
    String scope = "trails.latest." + layout.name().toLowerCase(Locale.ROOT);
    Optional<TrailsKeys.Position> after =
        page.cursor()
            .map(
                c ->
                    Cursors.decode(
                        scope,
                        c,
                        r -> new TrailsKeys.Position(r.readReverseTimestamp(), r.readInt())));
    List<Positioned> fetched;
    try {
      if (layout == HistoryLayout.TALL) {
        KeyRange user = TrailsKeys.TALL_ROW.range(uid);
        byte[] start =
            after
                .map(p -> KeyRange.successorOf(TrailsKeys.tallRow(uid, p.ts(), p.hash())))
                .orElse(user.start());
        Scan scan =
            KeyRange.between(start, user.stop())
                .toScan()
                .setLimit(page.fetchSize())
                .setCaching(page.fetchSize());
        fetched = scanTall(uid, scan);
      } else {
        ColumnPaginationFilter filter =
            after
                .map(
                    p ->
                        new ColumnPaginationFilter(
                            page.fetchSize(),
                            KeyRange.successorOf(TrailsKeys.wideQualifier(p.ts(), p.hash()))))
                .orElseGet(() -> new ColumnPaginationFilter(page.fetchSize(), 0));
        fetched = getWide(uid, new Get(TrailsKeys.wideRow(uid)).addFamily(H).setFilter(filter));
      }
    } catch (IOException e) {
      throw StorageException.of("read the history of a user", e);
    }
    return Page.of(
            fetched,
            page.limit(),
            p ->
                Cursors.encode(
                    scope,
                    KeyBuilder.create()
                        .addReverseTimestamp(p.position().ts())
                        .addInt(p.position().hash())
                        .build()))
        .map(Positioned::event);
  }

  /** The records of a user at exactly {@code ts} (usually one). */
  List<Event> at(String uid, long ts, HistoryLayout layout) {
    try {
      if (layout == HistoryLayout.TALL) {
        return events(scanTall(uid, TrailsKeys.TALL_ROW.range(uid, ts).toScan()));
      }
      return events(
          getWide(
              uid,
              new Get(TrailsKeys.wideRow(uid))
                  .addFamily(H)
                  .setFilter(new ColumnPrefixFilter(TrailsKeys.WIDE_COLUMN.prefix(ts)))));
    } catch (IOException e) {
      throw StorageException.of("read the history of a user", e);
    }
  }

  /** Every record of a user, newest first, at most {@code limit}. */
  List<Event> all(String uid, int limit, HistoryLayout layout) {
    try {
      if (layout == HistoryLayout.TALL) {
        return events(
            scanTall(
                uid, TrailsKeys.TALL_ROW.range(uid).toScan().setLimit(limit).setCaching(1000)));
      }
      byte[] row = TrailsKeys.wideRow(uid);
      // One row, read in batches of columns so a very wide row never has to fit one response.
      Scan scan =
          new Scan()
              .withStartRow(row, true)
              .withStopRow(row, true)
              .addFamily(H)
              .setBatch(1000)
              .setAllowPartialResults(true);
      List<Event> out = new ArrayList<>();
      try (Table t = connection.getTable(schema.wide());
          ResultScanner s = t.getScanner(scan)) {
        for (Result r : s) {
          out.addAll(events(decodeWide(uid, r.rawCells())));
          if (out.size() >= limit) {
            return out.subList(0, limit);
          }
        }
      }
      return out;
    } catch (IOException e) {
      throw StorageException.of("read the history of a user", e);
    }
  }

  private static List<Event> events(List<Positioned> positioned) {
    return positioned.stream().map(Positioned::event).toList();
  }

  private List<Positioned> scanTall(String uid, Scan scan) throws IOException {
    List<Positioned> out = new ArrayList<>();
    try (Table t = connection.getTable(schema.tall());
        ResultScanner s = t.getScanner(scan.addColumn(H, E).setReadType(Scan.ReadType.PREAD))) {
      for (Result r : s) {
        TrailsKeys.Position p = TrailsKeys.tallPosition(r.getRow());
        out.add(new Positioned(HistoryCodec.decode(uid, p.ts(), r.getValue(H, E), behaviours), p));
      }
    }
    return out;
  }

  private List<Positioned> getWide(String uid, Get get) throws IOException {
    try (Table t = connection.getTable(schema.wide())) {
      return decodeWide(uid, t.get(get).rawCells());
    }
  }

  private List<Positioned> decodeWide(String uid, Cell[] cells) {
    List<Positioned> out = new ArrayList<>(cells == null ? 0 : cells.length);
    if (cells != null) {
      for (Cell c : cells) {
        TrailsKeys.Position p = TrailsKeys.widePosition(CellUtil.cloneQualifier(c));
        out.add(
            new Positioned(
                HistoryCodec.decode(uid, p.ts(), CellUtil.cloneValue(c), behaviours), p));
      }
    }
    return out;
  }
}
