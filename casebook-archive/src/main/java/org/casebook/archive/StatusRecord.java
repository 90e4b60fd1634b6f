package org.casebook.archive;

import java.util.Objects;

/**
 * One status (post). {@code createdAt} is epoch milliseconds; {@code geo} is "lat,lon" or null;
 * {@code retweetedId}/{@code retweetedUid} name the original of a repost (null otherwise).
 */
public record StatusRecord(
    long id,
    String uid,
    long createdAt,
    String text,
    String source,
    long reposts,
    long comments,
    long attitudes,
    String geo,
    String retweetedId,
    String retweetedUid) {
  public StatusRecord {
    Objects.requireNonNull(uid, "uid is null");
    Objects.requireNonNull(text, "text is null");
    Objects.requireNonNull(source, "source is null");
  }
}
