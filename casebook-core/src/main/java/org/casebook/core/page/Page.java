package org.casebook.core.page;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * One page of a listing, in the listing's order, and the opaque cursor of the next page if there is
 * one. Every listing in Casebook pages this way (see {@link PageRequest}).
 */
public record Page<T>(List<T> items, Optional<String> next) {
  public Page {
    items = List.copyOf(Objects.requireNonNull(items, "items is null"));
    Objects.requireNonNull(next, "next is null");
  }

  public static <T> Page<T> last(List<T> items) {
    return new Page<>(items, Optional.empty());
  }

  /**
   * The page from {@code fetched}, which holds up to {@code limit + 1} items: if there is one more
   * than the limit, the next cursor is made from the last item kept.
   */
  public static <T> Page<T> of(List<T> fetched, int limit, Function<T, String> cursorOf) {
    if (fetched.size() <= limit) {
      return last(fetched);
    }
    List<T> kept = fetched.subList(0, limit);
    return new Page<>(kept, Optional.of(cursorOf.apply(kept.get(limit - 1))));
  }

  public <U> Page<U> map(Function<T, U> f) {
    return new Page<>(items.stream().map(f).toList(), next);
  }

  /** The next cursor or null, for JSON bodies. */
  public String nextOrNull() {
    return next.orElse(null);
  }
}
