package org.casebook.frontier;

import java.util.Objects;

/**
 * A URL as the frontier holds it (URLFrontier's {@code KnownURLItem}): its info and when it is due
 * (seconds since the epoch), 0 when done.
 */
public record KnownUrl(UrlInfo info, long refetchableFromDate) {
  public KnownUrl {
    Objects.requireNonNull(info, "info is null");
  }
}
