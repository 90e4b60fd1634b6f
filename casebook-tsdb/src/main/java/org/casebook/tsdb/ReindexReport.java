package org.casebook.tsdb;

/**
 * What {@code tsdb reindex} did: the metrics gone through, the data rows read, the series indexed.
 */
public record ReindexReport(int metrics, long dataRowsRead, long series) {}
