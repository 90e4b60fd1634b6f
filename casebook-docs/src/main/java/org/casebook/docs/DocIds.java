package org.casebook.docs;

import java.net.URI;
import java.net.URISyntaxException;
import java.time.Clock;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
import org.casebook.core.InvalidInputException;

/**
 * Document ids: canonical URLs for crawled pages, generated ids otherwise, and the composite ids of
 * comments, {@code cid:created:parentType:parentId} (the parts of the comment's row key; the parent
 * id comes last because it may contain colons).
 */
final class DocIds {
  private DocIds() {}

  /** A parsed comment id. */
  record CommentId(String cid, long created, String parentType, String parentId) {
    @Override
    public String toString() {
      return cid + ":" + created + ":" + parentType + ":" + parentId;
    }
  }

  /**
   * The id as stored: an http(s) URL is canonicalised (scheme and host lower-cased, default port
   * and fragment dropped, empty path as {@code /}) so that two spellings of one page are one
   * document; any other id is kept as given.
   */
  static String canonical(String id, String field) {
    DocLimits.id(id, field);
    String lower = id.toLowerCase(Locale.ROOT);
    if (!lower.startsWith("http://") && !lower.startsWith("https://")) {
      return id;
    }
    try {
      URI u = new URI(id);
      InvalidInputException.check(u.getHost() != null, field, field + " is a URL without a host");
      String scheme = u.getScheme().toLowerCase(Locale.ROOT);
      int port = u.getPort();
      boolean defaultPort =
          port == -1
              || (scheme.equals("http") && port == 80)
              || (scheme.equals("https") && port == 443);
      String path = u.getRawPath() == null || u.getRawPath().isEmpty() ? "/" : u.getRawPath();
      return scheme
          + "://"
          + u.getHost().toLowerCase(Locale.ROOT)
          + (defaultPort ? "" : ":" + port)
          + path
          + (u.getRawQuery() == null ? "" : "?" + u.getRawQuery());
    } catch (URISyntaxException e) {
      throw new InvalidInputException(field, field + " is not a valid URL: " + e.getReason());
    }
  }

  /** The lower-cased host of a URL, or an error naming {@code field}. */
  static String host(String url, String field) {
    try {
      String host = new URI(url).getHost();
      InvalidInputException.check(
          host != null, field, field + " must be an absolute URL with a host");
      return host.toLowerCase(Locale.ROOT);
    } catch (URISyntaxException e) {
      throw new InvalidInputException(field, field + " is not a valid URL: " + e.getReason());
    }
  }

  /** A new id: base-36 time then randomness, so generated ids of one batch stay apart. */
  static String generate(Clock clock) {
    ThreadLocalRandom r = ThreadLocalRandom.current();
    return Long.toString(clock.millis(), 36)
        + "-"
        + Long.toString(r.nextLong() & Long.MAX_VALUE, 36);
  }

  static CommentId parseComment(String id, String field) {
    DocLimits.id(id, field);
    String[] parts = id.split(":", 4);
    InvalidInputException.check(
        parts.length == 4,
        field,
        field + " of a comment is cid:created:parentType:parentId, got '" + id + "'");
    long created;
    try {
      created = Long.parseLong(parts[1]);
    } catch (NumberFormatException e) {
      throw new InvalidInputException(field, field + ": created must be epoch milliseconds");
    }
    InvalidInputException.check(created >= 0, field, field + ": created must not be negative");
    DocLimits.cid(parts[0], field);
    DocLimits.typeName(parts[2], field);
    return new CommentId(parts[0], created, parts[2], canonical(parts[3], field));
  }
}
