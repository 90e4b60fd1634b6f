package org.casebook.banknote;

import org.casebook.core.schema.SplitPoints;

/**
 * The two notes-table key designs the seed compares, for measuring their write spread (the
 * benchmark, {@code HotspotReport}): the stored one, led by the reversed serial, and the
 * serial-first one the seed warns against. Both end in the record's identity.
 */
public final class SerialKeys {
  private SerialKeys() {}

  /** The notes row key of {@code n}, as stored. */
  public static byte[] reversed(Note n) {
    return BanknoteKeys.note(n);
  }

  /** The key {@code n} would have with the serial first. */
  public static byte[] serialFirst(Note n) {
    return BanknoteKeys.serialFirst(n);
  }

  /**
   * The bytes of {@code n}'s notes row as stored, key and value (without the image, which has its
   * own family): what one raw cell is compared against.
   */
  public static int noteRowBytes(Note n) {
    return BanknoteKeys.note(n).length + NoteCodec.encode(n).length;
  }

  /** The notes table's split points. */
  public static SplitPoints noteSplits() {
    return BanknoteSchema.noteSplits();
  }
}
