package org.casebook.tsdb;

import java.util.Map;

/** OpenTSDB's {@code /api/query/last} answer element (the value as a string, as OpenTSDB's). */
public record LastAnswer(
    String metric, long timestamp, String value, Map<String, String> tags, String tsuid) {}
