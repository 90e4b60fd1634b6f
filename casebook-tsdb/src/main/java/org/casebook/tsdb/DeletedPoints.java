package org.casebook.tsdb;

import java.util.List;

/**
 * What a deleting query did: its answer as the points were before, and how many points went.
 *
 * @param answer per sub-query, its results (as {@link TsdbService#query} answers)
 * @param points the points deleted
 */
public record DeletedPoints(List<List<QueryResult>> answer, long points) {
  public DeletedPoints {
    answer = List.copyOf(answer);
  }
}
