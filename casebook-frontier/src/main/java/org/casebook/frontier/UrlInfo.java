package org.casebook.frontier;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A URL as a crawler describes it (URLFrontier's {@code URLInfo}): the URL, its queue key (empty:
 * the URL's host), its crawl ID (empty: {@code DEFAULT}) and metadata, each name with its values in
 * order. Empty text means "not given", as in the protocol; the frontier checks the URL and key when
 * it is put.
 */
public record UrlInfo(String url, String key, String crawlId, Map<String, List<String>> metadata) {
  public UrlInfo {
    Objects.requireNonNull(url, "url is null");
    Objects.requireNonNull(key, "key is null");
    Objects.requireNonNull(crawlId, "crawlId is null");
    Objects.requireNonNull(metadata, "metadata is null");
    Map<String, List<String>> copy = new LinkedHashMap<>();
    metadata.forEach(
        (name, values) ->
            copy.put(Objects.requireNonNull(name, "metadata name is null"), List.copyOf(values)));
    metadata = Collections.unmodifiableMap(copy);
  }

  /** A URL of {@code crawlId} without key or metadata. */
  public static UrlInfo of(String url, String crawlId) {
    return new UrlInfo(url, "", crawlId, Map.of());
  }

  /** This URL with {@code key} as its queue key. */
  public UrlInfo withKey(String key) {
    return new UrlInfo(url, key, crawlId, metadata);
  }
}
