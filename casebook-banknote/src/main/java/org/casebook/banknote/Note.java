package org.casebook.banknote;

import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.casebook.core.Ids;
import org.casebook.core.InvalidInputException;

/**
 * One reading of one banknote by one device, validated on construction (an {@link
 * InvalidInputException} names the failing field).
 *
 * <p>Its identity is {@code (device, source, record)}: the device, the file (or sequence) that
 * carried the record and the record's number in it. Row keys are derived from that identity, so a
 * record sent twice is stored once.
 *
 * @param serial 6–12 characters, letters upper-cased, unreadable positions as reported
 * @param denomination in whole units of {@code currency}
 * @param edition the year of the note's edition (RMB 1999, 2005, 2015, …), null if unknown
 * @param errorCodes the device's error codes as reported (FSN: three values, vendor codes too)
 * @param image the device's image of the serial (FSN ImageSNo: 8-byte header, 128 bytes a
 *     character), or null
 */
public record Note(
    String serial,
    int denomination,
    String currency,
    Integer edition,
    String device,
    DeviceKind deviceKind,
    String branch,
    Operation operation,
    Instant time,
    String batch,
    Verdict verdict,
    List<Integer> errorCodes,
    String source,
    long record,
    byte[] image) {
  /** Earliest time a device can report (the FSN date starts in 1980); anything before is a typo. */
  static final Instant EARLIEST = Instant.parse("1980-01-01T00:00:00Z");

  static final Instant LATEST = Instant.parse("2200-01-01T00:00:00Z");

  public Note {
    currency = NoteRules.currency(currency);
    serial = NoteRules.serial(serial, currency);
    NoteRules.denomination(denomination, currency);
    InvalidInputException.check(
        edition == null || (edition >= 1948 && edition <= 2200),
        "edition",
        "edition must be a year between 1948 and 2200");
    Ids.check(device, "device", NoteRules.MAX_ID);
    InvalidInputException.check(deviceKind != null, "deviceKind", "deviceKind is required");
    Ids.check(branch, "branch", NoteRules.MAX_ID);
    InvalidInputException.check(operation != null, "operation", "operation is required");
    InvalidInputException.check(time != null, "time", "time is required");
    // Messages are built only on failure: a note is constructed for every record collected.
    if (time.isBefore(EARLIEST) || !time.isBefore(LATEST)) {
      throw new InvalidInputException("time", "time must lie between 1980 and 2200, got " + time);
    }
    Ids.check(batch, "batch", NoteRules.MAX_ID);
    InvalidInputException.check(verdict != null, "verdict", "verdict is required");
    errorCodes = errorCodes == null ? List.of() : List.copyOf(errorCodes);
    if (errorCodes.size() > 3) {
      throw new InvalidInputException(
          "errorCodes", "at most 3 error codes, got " + errorCodes.size());
    }
    for (int code : errorCodes) {
      if (code < 0 || code > 0xFFFF) {
        throw new InvalidInputException("errorCodes", "error codes are 0..65535, got " + code);
      }
    }
    Ids.check(source, "source", NoteRules.MAX_SOURCE);
    if (record < 0) {
      throw new InvalidInputException("record", "record must be >= 0, got " + record);
    }
    if (image != null && (image.length == 0 || image.length > NoteRules.MAX_IMAGE)) {
      throw new InvalidInputException(
          "image", "image must be 1 to " + NoteRules.MAX_IMAGE + " bytes");
    }
    image = image == null ? null : image.clone();
  }

  @Override
  public byte[] image() {
    return image == null ? null : image.clone();
  }

  /** The same note without its image (what a listing shows unless images are asked for). */
  public Note withoutImage() {
    return image == null ? this : withImage(null);
  }

  /** The same note with {@code bytes} as its image. */
  public Note withImage(byte[] bytes) {
    return new Note(
        serial,
        denomination,
        currency,
        edition,
        device,
        deviceKind,
        branch,
        operation,
        time,
        batch,
        verdict,
        errorCodes,
        source,
        record,
        bytes);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Note n
        && denomination == n.denomination
        && record == n.record
        && serial.equals(n.serial)
        && currency.equals(n.currency)
        && Objects.equals(edition, n.edition)
        && device.equals(n.device)
        && deviceKind == n.deviceKind
        && branch.equals(n.branch)
        && operation == n.operation
        && time.equals(n.time)
        && batch.equals(n.batch)
        && verdict == n.verdict
        && errorCodes.equals(n.errorCodes)
        && source.equals(n.source)
        && Arrays.equals(image, n.image);
  }

  @Override
  public int hashCode() {
    return Objects.hash(serial, time, device, source, record);
  }

  @Override
  public String toString() {
    return "Note["
        + serial
        + " "
        + currency
        + " "
        + denomination
        + " at "
        + time
        + " by "
        + device
        + " ("
        + source
        + " #"
        + record
        + ")"
        + (image == null ? "" : ", image " + image.length + " B")
        + "]";
  }
}
