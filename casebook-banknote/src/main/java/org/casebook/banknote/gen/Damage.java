package org.casebook.banknote.gen;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.casebook.banknote.Note;
import org.casebook.banknote.NoteJson;
import org.casebook.banknote.fsn.FsnRecord;
import org.casebook.banknote.fsn.FsnVariant;
import org.casebook.core.Json;

/**
 * The ways devices break what they write: a record (short serial, denomination 3, month 13, an
 * empty serial position, flag 7), a JSON line (short serial, denomination 3, currency XYZ, cut
 * off), a whole FSN file (wrong magic, a truncated last record, a count the size belies).
 */
final class Damage {
  /** The generator's own: the files of a seed depend on the order of every draw. */
  private final SplittableRandom random;

  Damage(SplittableRandom random) {
    this.random = random;
  }

  /** {@code r} broken in one of the ways devices break records. */
  FsnRecord record(FsnRecord r) {
    int[] serial = r.serial();
    return switch (random.nextInt(5)) {
      case 0 -> copy(r, r.date(), r.tfFlag(), r.denomination(), 4, Arrays.copyOf(serial, 4));
      case 1 -> copy(r, r.date(), r.tfFlag(), 3, r.charCount(), serial);
      case 2 ->
          copy(
              r,
              (r.date() & ~(0xF << 5)) | (13 << 5),
              r.tfFlag(),
              r.denomination(),
              r.charCount(),
              serial);
      case 3 -> {
        serial[2] = 0;
        yield copy(r, r.date(), r.tfFlag(), r.denomination(), r.charCount(), serial);
      }
      default -> copy(r, r.date(), 7, r.denomination(), r.charCount(), serial);
    };
  }

  private static FsnRecord copy(
      FsnRecord r, int date, int tfFlag, long denomination, int charCount, int[] serial) {
    return new FsnRecord(
        date,
        r.time(),
        tfFlag,
        r.errorCodes(),
        r.currency(),
        r.edition(),
        denomination,
        charCount,
        serial,
        r.machine(),
        r.reserve1(),
        r.image());
  }

  /** The JSON line of {@code n}, broken. */
  String line(Note n) {
    NoteJson j = NoteJson.of(n);
    return switch (random.nextInt(4)) {
      case 0 -> Json.write(j).replace(n.serial(), n.serial().substring(0, 4));
      case 1 -> Json.write(j).replace("\"denomination\":" + n.denomination(), "\"denomination\":3");
      case 2 ->
          Json.write(j).replace("\"currency\":\"" + n.currency() + "\"", "\"currency\":\"XYZ\"");
      default -> Json.write(j).substring(0, 40);
    };
  }

  /** A whole file damaged: wrong magic, a truncated last record, or a count the size belies. */
  byte[] file(byte[] content, FsnVariant variant) {
    byte[] out = content.clone();
    switch (random.nextInt(3)) {
      case 0 -> out[0] = 21;
      case 1 -> {
        int cut = Math.min(37, Math.max(1, variant.recordBytes() / 2));
        out = Arrays.copyOf(content, Math.max(variant.headerBytes(), content.length - cut));
      }
      default -> {
        int at = variant.version() == 1 ? 20 : 22;
        out[at] = (byte) (out[at] + 5);
      }
    }
    return out;
  }
}
