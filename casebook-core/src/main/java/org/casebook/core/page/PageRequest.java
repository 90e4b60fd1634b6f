package org.casebook.core.page;

import java.util.Objects;
import java.util.Optional;
import org.casebook.core.InvalidInputException;

/**
 * How much of a listing to return and where to resume. One rule for every listing route and CLI
 * command: {@code limit} is 1 to {@link #MAX_LIMIT} (larger or smaller is a 400 naming {@code
 * limit}); {@code cursor} is the opaque value a previous page returned as {@code next}.
 */
public record PageRequest(int limit, Optional<String> cursor) {
  /** The largest page any listing returns. */
  public static final int MAX_LIMIT = 1000;

  public PageRequest {
    InvalidInputException.check(
        limit >= 1 && limit <= MAX_LIMIT,
        "limit",
        "limit must be between 1 and " + MAX_LIMIT + ", got " + limit);
    Objects.requireNonNull(cursor, "cursor is null");
    cursor = cursor.filter(c -> !c.isEmpty());
  }

  public static PageRequest first(int limit) {
    return new PageRequest(limit, Optional.empty());
  }

  /**
   * From raw caller values: a missing limit takes {@code defaultLimit}; an empty cursor is none.
   */
  public static PageRequest of(Integer limit, String cursor, int defaultLimit) {
    return new PageRequest(limit == null ? defaultLimit : limit, Optional.ofNullable(cursor));
  }

  /**
   * Parses a raw {@code limit} text (query parameter): not an integer, or out of range, is a 400
   * naming {@code limit}.
   */
  public static int parseLimit(String raw, int defaultLimit) {
    if (raw == null || raw.isBlank()) {
      return defaultLimit;
    }
    try {
      return Integer.parseInt(raw.trim());
    } catch (NumberFormatException e) {
      throw new InvalidInputException(
          "limit", "limit must be an integer between 1 and " + MAX_LIMIT + ", got '" + raw + "'");
    }
  }

  /** The number of items to fetch: one more than the limit, to know whether a next page exists. */
  public int fetchSize() {
    return limit + 1;
  }
}
