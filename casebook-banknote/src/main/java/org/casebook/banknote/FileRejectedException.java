package org.casebook.banknote;

/**
 * A whole file refused before any record of it is stored: malformed FSN (wrong header, truncated
 * record, impossible count), an unknown file type, or context nobody supplied. The file goes to
 * quarantine with {@link #getMessage()} as its reason.
 */
public final class FileRejectedException extends Exception {
  private static final long serialVersionUID = 1L;

  private final String field;

  public FileRejectedException(String reason) {
    this("file", reason);
  }

  /** Refused for want of {@code field} (a branch, a device id) or for what {@code field} holds. */
  public FileRejectedException(String field, String reason) {
    super(reason);
    this.field = field;
  }

  /** What the file lacks or gets wrong, as the collector names it in a 400. */
  public String field() {
    return field;
  }
}
