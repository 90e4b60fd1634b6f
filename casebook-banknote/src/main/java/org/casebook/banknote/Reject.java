package org.casebook.banknote;

/**
 * A record that was not stored: its number in the file (line number for JSON lines, from 0), the
 * field at fault and why.
 */
public record Reject(long record, String field, String reason) {}
