package org.casebook.tsdb;

import java.util.Map;

/** One series a lookup found. */
public record LookupResult(String tsuid, String metric, Map<String, String> tags) {}
