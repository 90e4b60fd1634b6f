package org.casebook.frontier;

import java.util.Arrays;
import java.util.Objects;

/** A URL of a channel by its ids: its host's (8 bytes) and its own (16); equal by content. */
record UrlRef(byte[] hostId, byte[] urlId) {
  UrlRef {
    Objects.requireNonNull(hostId, "hostId is null");
    Objects.requireNonNull(urlId, "urlId is null");
  }

  /** The ref of {@code url} queued under {@code queueKey}. */
  static UrlRef of(String queueKey, String url) {
    return new UrlRef(FrontierKeys.hostId(queueKey), FrontierKeys.urlId(url));
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof UrlRef r
        && Arrays.equals(hostId, r.hostId)
        && Arrays.equals(urlId, r.urlId);
  }

  @Override
  public int hashCode() {
    return 31 * Arrays.hashCode(hostId) + Arrays.hashCode(urlId);
  }

  @Override
  public String toString() {
    return new HostKey(hostId) + "/" + new HostKey(urlId);
  }
}
