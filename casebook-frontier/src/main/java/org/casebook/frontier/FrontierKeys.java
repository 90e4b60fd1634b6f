package org.casebook.frontier;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.casebook.core.key.Hashing;
import org.casebook.core.key.KeyLayout;
import org.casebook.core.key.KeyLayout.PartType;

/**
 * Row keys and qualifiers of the frontier, each a declared {@link KeyLayout}; the store builds and
 * reads every key through these.
 *
 * <pre>
 * frontier:channels  row  crawl ID                                    name → channel id, settings
 * frontier:hosts     row  channel                                     the channel's counters
 * frontier:hosts     row  channel | host id (MD5 of the queue key, 8)  one queue (seed: NAME_HOST)
 * frontier:urls      row  channel | host id | priority | URL id       queued URLs (seed: NAME_URL)
 * frontier:known     row  channel | host id | URL id (MD5 of the URL)  every URL ever put
 * frontier:due       row  channel | due time | host id | token        hosts with something due
 * frontier:nodes     row  node id (random, drawn at start)            a running frontier node
 * s (stats) family   qualifier  day | counter                         daily statistics
 * p (purge) family   qualifier  channel                               channels still being purged
 * h family, channel row  qualifier  host id | batch                   a host's PurgeURLs batch settled
 * </pre>
 *
 * A channel is a number, not its crawl ID: a crawl deleted and put again gets a new number, so the
 * old one's rows can be purged in the background while the new one fills.
 */
final class FrontierKeys {
  static final int HOST_ID_BYTES = 8;
  static final int URL_ID_BYTES = 16;

  static final KeyLayout CHANNEL_NAME =
      KeyLayout.named("channel name row").part("crawlId", PartType.STRING).build();

  static final KeyLayout CHANNEL =
      KeyLayout.named("channel row").part("channel", PartType.LONG).build();

  static final KeyLayout HOST =
      KeyLayout.named("host row")
          .part("channel", PartType.LONG)
          .fixed("hostId", HOST_ID_BYTES)
          .build();

  static final KeyLayout URL =
      KeyLayout.named("queued URL row")
          .part("channel", PartType.LONG)
          .fixed("hostId", HOST_ID_BYTES)
          .part("priority", PartType.LONG)
          .fixed("urlId", URL_ID_BYTES)
          .build();

  static final KeyLayout KNOWN =
      KeyLayout.named("known URL row")
          .part("channel", PartType.LONG)
          .fixed("hostId", HOST_ID_BYTES)
          .fixed("urlId", URL_ID_BYTES)
          .build();

  /**
   * A due row ends with the token of the host's stamp it was written for: every write of the index
   * has a key of its own, so deleting one row never takes another written under the same time (a
   * time recurs, and a put after a delete of its key in the same millisecond would be masked).
   */
  static final KeyLayout DUE =
      KeyLayout.named("due index row")
          .part("channel", PartType.LONG)
          .part("due", PartType.LONG)
          .fixed("hostId", HOST_ID_BYTES)
          .part("token", PartType.LONG)
          .build();

  /**
   * A due row of a host scheduled before stamps had tokens (token 0): read, deleted, and written
   * only to repair such a host's missing row.
   */
  static final KeyLayout DUE_UNTOKENED =
      KeyLayout.named("due index row without token")
          .part("channel", PartType.LONG)
          .part("due", PartType.LONG)
          .fixed("hostId", HOST_ID_BYTES)
          .build();

  /**
   * A frontier node's row: its id is drawn at random when the node starts, so a restarted process
   * is a new node and the row of the one before expires on its own.
   */
  static final KeyLayout NODE = KeyLayout.named("node row").part("nodeId", PartType.LONG).build();

  static final KeyLayout DAY_COUNTER =
      KeyLayout.named("daily counter qualifier")
          .part("day", PartType.INT)
          .part("counter", PartType.STRING)
          .build();

  static final KeyLayout PURGE =
      KeyLayout.named("purge qualifier").part("channel", PartType.LONG).build();

  /**
   * A host's PurgeURLs batch settled on the channel's counters: a qualifier per batch, so
   * forgetting one never hides the next one's, set in the same millisecond. An earlier version's
   * mark is the host id alone ({@code prefix(hostId)}), holding the batch id.
   */
  static final KeyLayout PURGE_SETTLED =
      KeyLayout.named("purge settled qualifier")
          .fixed("hostId", HOST_ID_BYTES)
          .part("batch", PartType.LONG)
          .build();

  /** Every layout above, for the descriptor. */
  static final List<KeyLayout> ALL =
      List.of(
          CHANNEL_NAME,
          CHANNEL,
          HOST,
          URL,
          KNOWN,
          DUE,
          DUE_UNTOKENED,
          NODE,
          DAY_COUNTER,
          PURGE,
          PURGE_SETTLED);

  /** Listing scopes: a cursor of one listing is refused by another. */
  static final String CHANNELS_SCOPE = "frontier.channels";

  static final String HOSTS_SCOPE = "frontier.hosts";

  private FrontierKeys() {}

  /** The id of a queue key (URLFrontier's key: host name by default). */
  static byte[] hostId(String queueKey) {
    return Hashing.md5Prefix(queueKey.getBytes(StandardCharsets.UTF_8), HOST_ID_BYTES);
  }

  /** The id of a URL: its whole MD5, so two URLs of one host never share a row. */
  static byte[] urlId(String url) {
    return Hashing.md5(url.getBytes(StandardCharsets.UTF_8));
  }

  /** A host row key is one channel row key longer; the channel's own row heads its hosts. */
  static boolean isChannelRow(byte[] hostsTableRow) {
    return hostsTableRow.length == CHANNEL.encode(0L).length;
  }

  static byte[] hostIdOf(byte[] hostRow) {
    return (byte[]) HOST.decode(hostRow).get("hostId");
  }
}
