package org.casebook.tsdb;

import java.util.Map;

/** The result of an assignment: ids as hex by name, and names refused with why. */
public record UidAssignment(
    String type, Map<String, String> assigned, Map<String, String> errors) {}
