package org.casebook.banknote;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import org.casebook.core.Enums;
import org.casebook.core.InvalidInputException;

/**
 * A note as JSON: one line of a JSON-lines file, one item of a collector batch and of every
 * listing. Enums are lower-case, {@code time} is ISO-8601 UTC, {@code image} base64.
 *
 * <pre>
 * {"serial":"XN15115812","denomination":100,"currency":"CNY","edition":2015,
 *  "device":"ATM-0042","deviceKind":"atm","branch":"0110-001","operation":"withdrawal",
 *  "time":"2026-03-02T01:15:02Z","batch":"T20260302-0042-7","verdict":"genuine",
 *  "errorCodes":[0,0,0],"source":"0110-001_withdrawal_T20260302-0042-7.jsonl","record":3}
 * </pre>
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record NoteJson(
    String serial,
    Integer denomination,
    String currency,
    Integer edition,
    String device,
    String deviceKind,
    String branch,
    String operation,
    String time,
    String batch,
    String verdict,
    List<Integer> errorCodes,
    String source,
    Long record,
    byte[] image) {

  public static NoteJson of(Note n) {
    return new NoteJson(
        n.serial(),
        n.denomination(),
        n.currency(),
        n.edition(),
        n.device(),
        Enums.label(n.deviceKind()),
        n.branch(),
        Enums.label(n.operation()),
        n.time().toString(),
        n.batch(),
        Enums.label(n.verdict()),
        n.errorCodes(),
        n.source(),
        n.record(),
        n.image());
  }

  /**
   * The note, or an {@link InvalidInputException} naming the field under {@code at} (for example
   * {@code notes[3].serial}).
   */
  public Note toNote(String at) {
    String p = at.isEmpty() ? "" : at + ".";
    InvalidInputException.check(
        denomination != null, p + "denomination", "denomination is required");
    InvalidInputException.check(record != null, p + "record", "record is required");
    try {
      return new Note(
          serial,
          denomination,
          currency,
          edition,
          device,
          Enums.parse(DeviceKind.class, deviceKind, "deviceKind"),
          branch,
          Enums.parse(Operation.class, operation, "operation"),
          instant(time),
          batch,
          Enums.parse(Verdict.class, verdict, "verdict"),
          errorCodes,
          source,
          record,
          image);
    } catch (InvalidInputException e) {
      throw p.isEmpty() ? e : new InvalidInputException(p + e.field(), e.getMessage());
    }
  }

  private static Instant instant(String time) {
    InvalidInputException.check(time != null, "time", "time is required");
    try {
      return Instant.parse(time);
    } catch (DateTimeParseException e) {
      throw new InvalidInputException(
          "time", "time must be ISO-8601 UTC like 2026-03-02T01:15:02Z, got '" + time + "'");
    }
  }
}
