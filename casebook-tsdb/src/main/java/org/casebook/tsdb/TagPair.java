package org.casebook.tsdb;

/** A {@code key=value} pair of a lookup ({@code *} for any value). */
public record TagPair(String key, String value) {}
