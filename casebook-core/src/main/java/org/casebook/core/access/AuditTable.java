package org.casebook.core.access;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.BufferedMutatorParams;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.FilterList;
import org.apache.hadoop.hbase.filter.SingleColumnValueFilter;
import org.casebook.core.InvalidInputException;
import org.casebook.core.StorageException;
import org.casebook.core.key.KeyLayout;
import org.casebook.core.key.KeyRange;
import org.casebook.core.page.Cursors;
import org.casebook.core.page.Page;
import org.casebook.core.page.PageRequest;
import org.casebook.core.schema.FamilySpec;
import org.casebook.core.schema.SplitPoints;
import org.casebook.core.schema.TableSpec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The audit trail in HBase: one row per entry, newest first, kept for the retention (the family's
 * TTL, counted from the entry's time). Entries are buffered and flushed within a second; an admin
 * entry is flushed before the request it records is answered.
 */
public final class AuditTable implements AuditLog, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(AuditTable.class);

  /** Where a served process keeps its trail unless told otherwise. */
  public static final TableName DEFAULT_NAME = TableName.valueOf("casebook", "audit");

  /** How long entries are kept unless the operator says otherwise. */
  public static final Duration DEFAULT_RETENTION = Duration.ofDays(365);

  /**
   * Newest first: a time-ordered key writes at one end of the table, which suits a trail of
   * requests (one row each, far below what one region takes) and makes a time range one scan.
   */
  static final KeyLayout KEY =
      KeyLayout.named("audit entry")
          .part("time", KeyLayout.PartType.REVERSE_TIMESTAMP)
          .part("nonce", KeyLayout.PartType.LONG)
          .build();

  private static final byte[] F = bytes("a");
  private static final byte[] WHO = bytes("who");
  private static final byte[] SYSTEM = bytes("system");
  private static final byte[] ACTION = bytes("action");
  private static final byte[] WHAT = bytes("what");
  private static final byte[] OUTCOME = bytes("outcome");
  private static final byte[] REMOTE = bytes("remote");
  private static final String CURSOR_SCOPE = "audit";

  private final Connection connection;
  private final TableName name;
  private final BufferedMutator mutator;
  private final Counter failed;

  private AuditTable(Connection connection, TableName name, MeterRegistry metrics)
      throws IOException {
    this.connection = connection;
    this.name = name;
    this.failed =
        Counter.builder("casebook.audit.failed")
            .description("audit entries that could not be written")
            .register(metrics);
    // The periodic flush runs on HBase's timer: its failures reach only this listener.
    this.mutator =
        connection.getBufferedMutator(
            new BufferedMutatorParams(name)
                .setWriteBufferPeriodicFlushTimeoutMs(1000)
                .listener(
                    (ex, m) -> {
                      failed.increment(ex.getNumExceptions());
                      LOG.error(
                          "{} audit entries could not be written to {}",
                          ex.getNumExceptions(),
                          name,
                          ex);
                    }));
  }

  /** The table's shape: one family whose TTL is the retention. */
  public static TableSpec spec(TableName name, Duration retention) {
    long seconds = retention.toSeconds();
    InvalidInputException.check(
        seconds >= 86_400 && seconds <= Integer.MAX_VALUE - 1L,
        "audit-retention-days",
        "the audit retention must be between one day and "
            + (Integer.MAX_VALUE / 86_400)
            + " days");
    return new TableSpec(
        name,
        List.of(FamilySpec.of("a").withTtlSeconds((int) seconds)),
        SplitPoints.none(),
        KEY.shape());
  }

  /** Opens the trail in {@code name}, which must exist ({@link #spec}). */
  public static AuditTable open(Connection connection, TableName name, MeterRegistry metrics) {
    try {
      return new AuditTable(connection, name, metrics);
    } catch (IOException e) {
      throw StorageException.of("open the audit trail " + name, e);
    }
  }

  /**
   * Records one entry at once, from a process that keeps no trail open (the CLI); the table is made
   * with {@link #DEFAULT_RETENTION} when no serve has made it.
   */
  public static void recordNow(Connection connection, TableName name, AuditEntry e) {
    try (org.apache.hadoop.hbase.client.Admin admin = connection.getAdmin()) {
      if (!admin.tableExists(name)) {
        new org.casebook.core.schema.SchemaManager(connection)
            .ensure(spec(name, DEFAULT_RETENTION));
      }
    } catch (IOException ex) {
      throw StorageException.of("find the audit trail " + name, ex);
    }
    try (Table t = connection.getTable(name)) {
      t.put(put(e));
    } catch (IOException ex) {
      throw StorageException.of("record to the audit trail " + name, ex);
    }
  }

  private static Put put(AuditEntry e) {
    long millis = e.time().toEpochMilli();
    return new Put(KEY.encode(millis, ThreadLocalRandom.current().nextLong()))
        .addColumn(F, WHO, millis, bytes(e.who()))
        .addColumn(F, SYSTEM, millis, bytes(e.system()))
        .addColumn(F, ACTION, millis, bytes(e.action().label()))
        .addColumn(F, WHAT, millis, bytes(e.what()))
        .addColumn(F, OUTCOME, millis, bytes(e.outcome()))
        .addColumn(F, REMOTE, millis, bytes(e.remote()));
  }

  @Override
  public void record(AuditEntry e) {
    try {
      mutator.mutate(put(e));
      // An admin's change is on record before it is answered; a refusal can wait for the timer.
      if (e.action() == Action.ADMIN && !e.refused()) {
        mutator.flush();
      }
    } catch (IOException | RuntimeException ex) {
      failed.increment();
      LOG.error("could not record to the audit trail {}: {}", name, e, ex);
    }
  }

  /** Sends what is buffered. */
  public void flush() {
    try {
      mutator.flush();
    } catch (IOException e) {
      throw StorageException.of("flush the audit trail " + name, e);
    }
  }

  /**
   * Entries in {@code [from, to)}, newest first, those of {@code who} and of {@code system} only
   * when given: one scan of the range, filtered in the RegionServer.
   */
  public Page<AuditEntry> list(
      Instant from, Instant to, Optional<String> who, Optional<String> system, PageRequest page) {
    InvalidInputException.check(from.isBefore(to), "from", "from must be before to");
    InvalidInputException.check(from.toEpochMilli() >= 1, "from", "from must be after 1970");
    byte[] start = KEY.prefix(to.toEpochMilli() - 1);
    if (page.cursor().isPresent()) {
      byte[] after = Cursors.decode(CURSOR_SCOPE, page.cursor().get());
      start = KeyRange.successorOf(after);
    }
    byte[] stop = KEY.prefix(from.toEpochMilli() - 1);
    Scan scan =
        new Scan().withStartRow(start).withStopRow(stop).addFamily(F).setLimit(page.fetchSize());
    FilterList filters = new FilterList(FilterList.Operator.MUST_PASS_ALL);
    who.ifPresent(w -> filters.addFilter(equal(WHO, w)));
    system.ifPresent(s -> filters.addFilter(equal(SYSTEM, s)));
    if (!filters.getFilters().isEmpty()) {
      scan.setFilter(filters);
    }
    List<AuditEntry> out = new ArrayList<>();
    byte[] last = null;
    try (Table t = connection.getTable(name);
        ResultScanner rs = t.getScanner(scan)) {
      for (Result r : rs) {
        if (out.size() == page.limit()) {
          return new Page<>(out, Optional.of(Cursors.encode(CURSOR_SCOPE, last)));
        }
        out.add(entry(r));
        last = r.getRow();
      }
    } catch (IOException e) {
      throw StorageException.of("read the audit trail " + name, e);
    }
    return new Page<>(out, Optional.empty());
  }

  private static SingleColumnValueFilter equal(byte[] column, String value) {
    SingleColumnValueFilter f =
        new SingleColumnValueFilter(F, column, CompareOperator.EQUAL, bytes(value));
    f.setFilterIfMissing(true);
    return f;
  }

  private static AuditEntry entry(Result r) {
    long time = KEY.decode(r.getRow()).number("time");
    return new AuditEntry(
        Instant.ofEpochMilli(time),
        text(r, WHO),
        text(r, SYSTEM),
        Action.parse(text(r, ACTION), "action"),
        text(r, WHAT),
        text(r, OUTCOME),
        text(r, REMOTE));
  }

  private static String text(Result r, byte[] column) {
    byte[] v = r.getValue(F, column);
    return v == null ? "" : new String(v, StandardCharsets.UTF_8);
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Override
  public void close() {
    try {
      mutator.close();
    } catch (IOException e) {
      throw StorageException.of("close the audit trail " + name, e);
    }
  }
}
