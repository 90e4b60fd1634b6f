package org.casebook.banknote;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.casebook.banknote.fsn.FsnFile;
import org.casebook.banknote.fsn.FsnHeader;
import org.casebook.banknote.fsn.FsnRecord;
import org.casebook.core.InvalidInputException;

/**
 * FSN records to notes and back: the FSN fields Casebook uses and how each maps (packed DOS date
 * and time in the device's zone, tfFlag to the verdict, the edition code to a year, Reserve1's
 * machine-type nibble to the device kind).
 */
public final class FsnNotes {
  /** The RMB edition codes (Ver) and their years; 9999 means "not RMB or unknown". */
  static final Map<Integer, Integer> EDITIONS =
      Map.of(0, 1990, 1, 1999, 2, 2005, 3, 2015, 4, 2019, 5, 2020);

  public static final int UNKNOWN_EDITION = 9999;

  private FsnNotes() {}

  /** What the file name says: {@code <branch>_<operation>_<batch>.fsn}, each part optional. */
  record NameParts(String branch, Operation operation, String batch) {}

  static NameParts nameParts(String fileName) {
    int dot = fileName.lastIndexOf('.');
    String stem = dot > 0 ? fileName.substring(0, dot) : fileName;
    int first = stem.indexOf('_');
    if (first > 0) {
      int second = stem.indexOf('_', first + 1);
      if (second > first + 1 && second < stem.length() - 1) {
        String op = stem.substring(first + 1, second).toUpperCase(Locale.ROOT);
        for (Operation o : Operation.values()) {
          if (o.name().equals(op)) {
            return new NameParts(stem.substring(0, first), o, stem.substring(second + 1));
          }
        }
      }
    }
    return new NameParts(null, null, stem);
  }

  /**
   * The notes of a parsed FSN file; records that break a rule are rejected with their reason.
   *
   * @throws FileRejectedException when the file lacks something every record needs (a device id or
   *     a branch) and the context does not supply it
   */
  static ParsedFile notes(String source, FsnFile file, FileContext context)
      throws FileRejectedException {
    return notes(source, 0, file, context);
  }

  /**
   * The notes of a piece of an FSN file whose first record is record {@code first} of the file
   * {@code source} (the agent's uploads): record numbers, and so row keys, are the whole file's.
   */
  static ParsedFile notes(String source, long first, FsnFile file, FileContext context)
      throws FileRejectedException {
    FsnHeader h = file.header();
    NameParts name = nameParts(source);
    String branch = first(h.branch(), name.branch(), context.branch());
    if (branch == null) {
      throw new FileRejectedException(
          "branch",
          "the file names no branch (FSN 2014 has no branch field and the name is not"
              + " <branch>_<operation>_<batch>.fsn); give one (--branch)");
    }
    DeviceKind headerKind = kindOf(h.machineType());
    List<Note> notes = new ArrayList<>(file.records().size());
    List<Reject> rejects = new ArrayList<>();
    for (int i = 0; i < file.records().size(); i++) {
      FsnRecord r = file.records().get(i);
      String device = first(context.device(), r.machine(), h.machine());
      if (device == null) {
        throw new FileRejectedException(
            "device",
            "record "
                + (first + i)
                + " names no machine (MachineSNo is empty); give one (--device)");
      }
      DeviceKind kind =
          firstKind(DeviceKind.ofFsnCode((r.reserve1() >> 8) & 0xF), headerKind, context.kind());
      Operation operation =
          name.operation() != null
              ? name.operation()
              : context.operation() != null ? context.operation() : kind.defaultOperation();
      int[] errors = r.errorCodes();
      try {
        notes.add(
            new Note(
                serial(r),
                denomination(r.denomination()),
                r.currency(),
                edition(r.edition()),
                device,
                kind,
                branch,
                operation,
                time(r.date(), r.time(), context.zone()),
                name.batch(),
                verdict(r.tfFlag()),
                List.of(errors[0], errors[1], errors[2]),
                source,
                first + i,
                r.image()));
      } catch (InvalidInputException e) {
        rejects.add(new Reject(first + i, e.field(), e.getMessage()));
      }
    }
    return new ParsedFile(source, file.variant().name().toLowerCase(Locale.ROOT), notes, rejects);
  }

  /** The FSN record of a note (the inverse of {@link #notes} for what FSN can hold). */
  public static FsnRecord record(Note n, ZoneId zone, boolean withMachine) {
    LocalDateTime t = LocalDateTime.ofInstant(n.time(), zone);
    int date = ((t.getYear() - 1980) << 9) | (t.getMonthValue() << 5) | t.getDayOfMonth();
    int time = (t.getHour() << 11) | (t.getMinute() << 5) | (t.getSecond() >> 1);
    int[] serial = n.serial().chars().toArray();
    int[] errors = new int[3];
    for (int i = 0; i < Math.min(3, n.errorCodes().size()); i++) {
      errors[i] = n.errorCodes().get(i);
    }
    int edition = UNKNOWN_EDITION;
    for (Map.Entry<Integer, Integer> e : EDITIONS.entrySet()) {
      if (e.getValue().equals(n.edition())) {
        edition = e.getKey();
      }
    }
    // Reserve1 (2015-10 bit-field): machine type in bits 8..11, note type 2 (intact) or 3
    // (doubtful) in bits 12..15; the length nibbles describe the machine id.
    int noteType = n.verdict() == Verdict.SUSPECT ? 3 : 2;
    int reserve1 = (noteType << 12) | (n.deviceKind().fsnCode() << 8);
    return new FsnRecord(
        date,
        time,
        n.verdict() == Verdict.SUSPECT ? 0 : 1,
        errors,
        n.currency(),
        edition,
        n.denomination(),
        serial.length,
        serial,
        withMachine ? n.device() : "",
        withMachine ? reserve1 : 0,
        n.image());
  }

  private static String serial(FsnRecord r) {
    int n = r.charCount();
    if (n < 1 || n > 12) {
      throw new InvalidInputException("serial", "CharNUM is " + n + ", expected 1 to 12");
    }
    int[] chars = r.serial();
    // Some sorters count one slot too many (CharNUM 11 for a 10-character serial): empty slots at
    // the end are not part of the serial; an empty slot before a character is a broken serial.
    while (n > 1 && chars[n - 1] == 0) {
      n--;
    }
    StringBuilder s = new StringBuilder(n);
    for (int i = 0; i < n; i++) {
      if (chars[i] == 0) {
        throw new InvalidInputException(
            "serial", "serial position " + (i + 1) + " of " + n + " is empty (0x0000)");
      }
      s.append((char) chars[i]);
    }
    return s.toString();
  }

  private static int denomination(long valuta) {
    if (valuta < 0 || valuta > Integer.MAX_VALUE) {
      throw new InvalidInputException("denomination", "unknown denomination " + valuta);
    }
    return (int) valuta;
  }

  private static Integer edition(int code) {
    return EDITIONS.get(code);
  }

  private static Verdict verdict(int tfFlag) {
    return switch (tfFlag) {
      case 0 -> Verdict.SUSPECT;
      case 1, 2, 3 -> Verdict.GENUINE;
      default -> throw new InvalidInputException("verdict", "tfFlag is " + tfFlag + ", not 0..3");
    };
  }

  /** A packed DOS date and time (two-second resolution) in {@code zone}. */
  static Instant time(int date, int time, ZoneId zone) {
    try {
      return LocalDateTime.of(
              1980 + (date >> 9),
              (date >> 5) & 0xF,
              date & 0x1F,
              time >> 11,
              (time >> 5) & 0x3F,
              (time & 0x1F) * 2)
          .atZone(zone)
          .toInstant();
    } catch (DateTimeException e) {
      throw new InvalidInputException(
          "time",
          String.format(
              Locale.ROOT,
              "not a date and time: Date 0x%04X, Time 0x%04X (%s)",
              date,
              time,
              e.getMessage()));
    }
  }

  /** A 2018 header's machine type: a Machine_Type digit or a kind's name. */
  static DeviceKind kindOf(String machineType) {
    String t = machineType.trim();
    if (t.length() == 1 && Character.isDigit(t.charAt(0))) {
      return DeviceKind.ofFsnCode(t.charAt(0) - '0');
    }
    for (DeviceKind k : DeviceKind.values()) {
      if (k.name().equalsIgnoreCase(t)) {
        return k;
      }
    }
    return null;
  }

  private static String first(String... values) {
    for (String v : values) {
      if (v != null && !v.isBlank()) {
        return v;
      }
    }
    return null;
  }

  private static DeviceKind firstKind(DeviceKind a, DeviceKind b, DeviceKind c) {
    return a != null ? a : b != null ? b : c != null ? c : DeviceKind.SORTER;
  }
}
