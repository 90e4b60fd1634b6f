package org.casebook.frontier;

import java.util.Objects;
import org.casebook.core.SystemContext;
import org.casebook.core.schema.SchemaManager;

/**
 * The frontier's storage, one store per table: every HBase read and write goes through these.
 * Multi-row changes are ordered so that a crash in between leaves at most a hint (an extra due row,
 * an orphan queued row) that later reads clean up, never a URL that is known but can no longer be
 * handed out; single-row decisions (is this URL new, who hands out this host now, did the due time
 * move) are check-and-mutate.
 */
record FrontierStore(
    ChannelStore channels,
    HostStore hosts,
    QueueStore queues,
    KnownStore known,
    DueStore due,
    NodeStore nodes) {
  FrontierStore {
    Objects.requireNonNull(channels, "channels is null");
    Objects.requireNonNull(hosts, "hosts is null");
    Objects.requireNonNull(queues, "queues is null");
    Objects.requireNonNull(known, "known is null");
    Objects.requireNonNull(due, "due is null");
    Objects.requireNonNull(nodes, "nodes is null");
  }

  /** The stores of {@code schema} on the context's HBase; its tables are created if missing. */
  static FrontierStore open(SystemContext context, FrontierSchema schema) {
    new SchemaManager(context.connection()).ensureAll(schema.tables());
    return new FrontierStore(
        new ChannelStore(context.connection(), schema),
        new HostStore(context.connection(), schema),
        new QueueStore(context.connection(), schema),
        new KnownStore(context.connection(), schema),
        new DueStore(context.connection(), schema),
        new NodeStore(context.connection(), schema));
  }

  /** Deletes every row of channel {@code id} in every table, then its purge mark; answers rows. */
  long purge(long id) {
    long rows = 0;
    rows += queues.purge(id);
    rows += known.purge(id);
    rows += due.purge(id);
    rows += hosts.purge(id);
    channels.purged(id);
    return rows;
  }
}
