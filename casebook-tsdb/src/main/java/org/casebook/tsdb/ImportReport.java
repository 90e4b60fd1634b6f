package org.casebook.tsdb;

import java.util.List;

/**
 * What an import stored and refused.
 *
 * @param firstErrors the first few refused lines, as {@code line N: message}
 */
public record ImportReport(
    String file, long lines, long points, long refused, double seconds, List<String> firstErrors) {
  public ImportReport {
    firstErrors = List.copyOf(firstErrors);
  }
}
