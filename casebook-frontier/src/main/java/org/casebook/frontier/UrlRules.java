package org.casebook.frontier;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import org.casebook.core.Ids;
import org.casebook.core.InvalidInputException;

/** What the frontier accepts: URLs, queue keys and crawl IDs, and the key a URL gets by default. */
final class UrlRules {
  /** Longest URL accepted (characters). */
  static final int MAX_URL = 8192;

  /** Longest queue key (the reference service's limit). */
  static final int MAX_KEY = 255;

  /** Longest crawl ID. */
  static final int MAX_CRAWL_ID = 255;

  /** The crawl ID of an empty or blank one (URLFrontier's {@code CrawlID.DEFAULT}). */
  static final String DEFAULT_CRAWL_ID = "DEFAULT";

  private UrlRules() {}

  /** The crawl ID URLFrontier means: empty or blank is {@code DEFAULT}. */
  static String crawlId(String raw) {
    // As URLFrontier's CrawlID.normaliseCrawlID: blank by String.trim, otherwise unchanged.
    String c = raw == null || raw.trim().isEmpty() ? DEFAULT_CRAWL_ID : raw;
    Ids.check(c, "crawlID", MAX_CRAWL_ID);
    return c;
  }

  /** Checks a queue key a caller names (not derived from a URL); answers it unchanged. */
  static String queueKey(String key) {
    return Ids.check(key, "key", MAX_KEY);
  }

  /** Checks a URL: absolute, with a scheme, parsable; answers it unchanged. */
  static String url(String url, String field) {
    InvalidInputException.check(url != null && !url.isBlank(), field, "a URL is required");
    InvalidInputException.check(url.length() <= MAX_URL, field, "URL longer than " + MAX_URL);
    String problem = Ids.textProblem(url, MAX_URL, false);
    InvalidInputException.check(problem == null, field, "bad URL: " + problem);
    URI uri;
    try {
      uri = new URI(url);
    } catch (URISyntaxException e) {
      throw new InvalidInputException(field, "unparsable URL: " + e.getMessage());
    }
    InvalidInputException.check(
        uri.getScheme() != null && uri.isAbsolute(), field, "not an absolute URL: " + url);
    return url;
  }

  /** The queue key: the one given, else the URL's host (lower case). */
  static String key(String given, String url, String field) {
    if (given != null && !given.isEmpty()) {
      return Ids.check(given, field, MAX_KEY);
    }
    String host;
    try {
      URI uri = new URI(url);
      host = uri.getHost();
      if (host == null && uri.getRawAuthority() != null) {
        host = uri.getRawAuthority().replaceFirst("^.*@", "").replaceFirst(":\\d*$", "");
      }
    } catch (URISyntaxException e) {
      throw new InvalidInputException(field, "unparsable URL: " + e.getMessage());
    }
    InvalidInputException.check(
        host != null && !host.isEmpty(), field, "the URL has no host; give a key");
    return Ids.check(host.toLowerCase(Locale.ROOT), field, MAX_KEY);
  }
}
