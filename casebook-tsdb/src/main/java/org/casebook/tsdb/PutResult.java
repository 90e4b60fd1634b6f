package org.casebook.tsdb;

import java.util.List;
import java.util.Map;

/**
 * The outcome of an HTTP put, in OpenTSDB's shape ({@code errors} only with {@code details}).
 *
 * @param errors each refused point as sent, with why
 */
public record PutResult(int success, int failed, List<PointError> errors) {
  public PutResult {
    errors = List.copyOf(errors);
  }

  /** A refused point: the JSON object as sent and OpenTSDB's message. */
  public record PointError(Map<String, Object> datapoint, String error) {}
}
