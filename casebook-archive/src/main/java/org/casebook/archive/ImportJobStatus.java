package org.casebook.archive;

/**
 * A background import: {@code state} is {@code running}, {@code succeeded} (with the report) or
 * {@code failed} (with the error). Times are ISO-8601 instants from the system's clock.
 */
public record ImportJobStatus(
    String id,
    String state,
    String input,
    String mode,
    String startedAt,
    String finishedAt,
    ImportReport report,
    String error) {
  public static final String RUNNING = "running";
  public static final String SUCCEEDED = "succeeded";
  public static final String FAILED = "failed";
}
