package org.casebook.banknote;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.List;
import java.util.Objects;

/**
 * A branch's daily settlement: the notes its devices counted on one business day (the bank's zone),
 * per device and denomination, by operation, with the suspect notes and the files that made them
 * up; the notes per local hour; and whether the day is closed.
 *
 * <p>The day is {@link Status#CLOSED} when every device with notes that day has declared that it
 * delivered its files of the day and no file of that device was stored at or after its latest
 * declaration; {@link Status#REOPENED} when every such device has declared but a file arrived at or
 * after a declaration (listed in {@link #lateFiles}); {@link Status#OPEN} otherwise, and for a day
 * with neither notes nor declarations.
 *
 * @param closedAt when the day closed (the last declaration), null unless closed
 * @param totals the day's notes by operation and its suspects
 * @param lines one per device and denomination (currency and value), by device
 * @param devices every device with notes or a declaration that day, by id
 * @param lateFiles files stored at or after their device's first declaration
 * @param hours 24 entries: the notes read in each local hour of the day (0–23)
 */
public record Settlement(
    String branch,
    LocalDate day,
    ZoneId zone,
    Status status,
    Instant closedAt,
    Counts totals,
    List<Line> lines,
    List<DeviceDay> devices,
    List<LateFile> lateFiles,
    List<Hour> hours) {

  public Settlement {
    Objects.requireNonNull(branch, "branch is null");
    Objects.requireNonNull(day, "day is null");
    Objects.requireNonNull(status, "status is null");
    lines = List.copyOf(lines);
    devices = List.copyOf(devices);
    lateFiles = List.copyOf(lateFiles);
    hours = List.copyOf(hours);
  }

  /** Whether every device that reported the day has declared its files delivered. */
  public enum Status {
    OPEN,
    CLOSED,
    REOPENED
  }

  /** Notes by operation, and how many of them were suspect. */
  public record Counts(long deposit, long withdrawal, long sorting, long counting, long suspects) {
    public static final Counts ZERO = new Counts(0, 0, 0, 0, 0);

    /** Every note counted, whatever the operation. */
    public long total() {
      return deposit + withdrawal + sorting + counting;
    }

    public long of(Operation operation) {
      return switch (operation) {
        case DEPOSIT -> deposit;
        case WITHDRAWAL -> withdrawal;
        case SORTING -> sorting;
        case COUNTING -> counting;
      };
    }

    Counts plus(Operation operation, long notes, long suspect) {
      return new Counts(
          deposit + (operation == Operation.DEPOSIT ? notes : 0),
          withdrawal + (operation == Operation.WITHDRAWAL ? notes : 0),
          sorting + (operation == Operation.SORTING ? notes : 0),
          counting + (operation == Operation.COUNTING ? notes : 0),
          suspects + suspect);
    }
  }

  /** A file's share of a line: its name and the notes of that line it holds. */
  public record FileCount(String source, long notes) {}

  /** One device's notes of one denomination on the day, and the files they came in. */
  public record Line(
      String device,
      DeviceKind deviceKind,
      String currency,
      int denomination,
      Counts counts,
      List<FileCount> files) {
    public Line {
      files = List.copyOf(files);
    }
  }

  /**
   * One file's notes of the day. {@code firstStored}/{@code lastStored} are when its pieces were
   * stored; {@code late} when one was stored at or after the device's first declaration; {@code
   * recounted} when its summary rows overlapped (the file was sent again in other pieces) and its
   * counts were read from the stored notes instead.
   */
  public record FileDay(
      String source,
      long notes,
      long suspects,
      int pieces,
      Instant firstStored,
      Instant lastStored,
      boolean late,
      boolean recounted) {}

  /**
   * A device's day: its notes, its files, and its delivered declarations (null when it made none).
   */
  public record DeviceDay(
      String device,
      DeviceKind deviceKind,
      Counts counts,
      Instant firstDeclared,
      Instant declared,
      List<FileDay> files) {
    public DeviceDay {
      files = List.copyOf(files);
    }
  }

  /**
   * A file stored at or after its device declared the day delivered. {@code redeclared}: the device
   * declared again after it arrived, so it no longer keeps the day open.
   */
  public record LateFile(
      String device,
      String source,
      long notes,
      Instant stored,
      Instant declared,
      boolean redeclared) {}

  /** The notes read in one local hour of the day. */
  public record Hour(int hour, long notes, long suspects) {}

  /**
   * What a delivered declaration did: the device's first and latest declaration of the day, whether
   * this call recorded one (false: it was already declared and nothing arrived since, so the call
   * changed nothing), and the day's status after it.
   */
  public record Delivery(
      String branch,
      LocalDate day,
      String device,
      Instant firstDeclared,
      Instant declared,
      boolean recorded,
      Status status) {}
}
