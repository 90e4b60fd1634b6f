package org.casebook.weibo;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** One page of results, newest (or first) first, and the cursor of the next page if there is one. */
public record Page<T>(List<T> items, Optional<String> next) {
  public Page {
    items = List.copyOf(Objects.requireNonNull(items, "items is null"));
    Objects.requireNonNull(next, "next is null");
  }
}
