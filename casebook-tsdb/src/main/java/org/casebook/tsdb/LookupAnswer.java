package org.casebook.tsdb;

import java.util.List;

/** OpenTSDB's {@code /api/search/lookup} answer. */
public record LookupAnswer(
    String type,
    String metric,
    List<TagPair> tags,
    int limit,
    long time,
    List<LookupResult> results,
    int startIndex,
    int totalResults) {}
