package org.casebook.core.cli;

import org.casebook.core.page.PageRequest;
import picocli.CommandLine.Option;

/**
 * {@code --limit} and {@code --cursor} of every listing command, as a picocli mixin: the same rule
 * as the REST listings ({@link PageRequest}).
 */
public final class PageOptions {
  @Option(
      names = "--limit",
      paramLabel = "N",
      description = "Items per page, 1-" + PageRequest.MAX_LIMIT + " (default: the command's).")
  Integer limit;

  @Option(
      names = "--cursor",
      paramLabel = "CURSOR",
      description = "The 'next' value printed by the previous page.")
  String cursor;

  /** The page asked for, {@code defaultLimit} items unless {@code --limit} says otherwise. */
  public PageRequest request(int defaultLimit) {
    return PageRequest.of(limit, cursor, defaultLimit);
  }
}
