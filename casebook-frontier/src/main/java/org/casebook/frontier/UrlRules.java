package org.casebook.frontier;

import crawlercommons.urlfrontier.CrawlID;
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

  private UrlRules() {}

  /** The crawl ID URLFrontier means: empty or blank is {@code DEFAULT}. */
  static String crawlId(String raw) {
    String c = CrawlID.normaliseCrawlID(raw == null ? "" : raw);
    Ids.check(c, "crawlID", MAX_CRAWL_ID);
    return c;
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
