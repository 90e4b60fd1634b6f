package org.casebook.frontier;

import java.util.Objects;

/**
 * One item of a put (URLFrontier's {@code URLItem}): a URL discovered (queued if new), or a URL
 * known to the crawler — done when {@code refetchableFromDate} is 0, else queued again for that
 * time (seconds since the epoch). An item that is neither is refused when put, as are bad URLs and
 * dates: the put acknowledges every item, so nothing here is checked beyond presence.
 *
 * @param id what the acknowledgement names (empty: the URL)
 */
public record UrlItem(String id, Kind kind, UrlInfo info, long refetchableFromDate) {
  /** Discovered, known, or neither (an empty item, refused). */
  public enum Kind {
    DISCOVERED,
    KNOWN,
    NEITHER
  }

  public UrlItem {
    Objects.requireNonNull(id, "id is null");
    Objects.requireNonNull(kind, "kind is null");
    Objects.requireNonNull(info, "info is null");
  }

  /** A discovered URL, acknowledged under its URL. */
  public static UrlItem discovered(UrlInfo info) {
    return new UrlItem("", Kind.DISCOVERED, info, 0);
  }

  /** A known URL: done when {@code refetchableFromDate} is 0, else due again then (seconds). */
  public static UrlItem known(UrlInfo info, long refetchableFromDate) {
    return new UrlItem("", Kind.KNOWN, info, refetchableFromDate);
  }

  /** The id its acknowledgement carries: the item's own, else its URL. */
  public String ackId() {
    return id.isEmpty() ? info.url() : id;
  }
}
