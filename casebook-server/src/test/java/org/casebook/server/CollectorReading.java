package org.casebook.server;

/** One banknote reading as the collector's JSON takes it ({@code POST /api/banknotes/batches}). */
record CollectorReading(
    String serial,
    int denomination,
    String currency,
    String device,
    String deviceKind,
    String branch,
    String operation,
    String time,
    String batch,
    String verdict,
    String source,
    long record) {}
