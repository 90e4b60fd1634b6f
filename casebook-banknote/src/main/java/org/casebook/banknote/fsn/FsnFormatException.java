package org.casebook.banknote.fsn;

/** A file that is not a well-formed FSN file (wrong header, truncated record, impossible count). */
public final class FsnFormatException extends Exception {
  private static final long serialVersionUID = 1L;

  public FsnFormatException(String reason) {
    super(reason);
  }
}
