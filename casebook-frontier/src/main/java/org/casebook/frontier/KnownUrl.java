package org.casebook.frontier;

import java.util.Objects;

/**
 * A URL as the frontier holds it (URLFrontier's {@code KnownURLItem} and {@code creation_date}):
 * its info, when it is due (seconds since the epoch; 0 when done) and when it was first stored
 * (seconds since the epoch; 0 when stored before the frontier kept that date).
 */
public record KnownUrl(UrlInfo info, long refetchableFromDate, long creationDate) {
  public KnownUrl {
    Objects.requireNonNull(info, "info is null");
  }
}
