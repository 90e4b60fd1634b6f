package org.casebook.bench;

import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * The codec {@code bench storage}'s figures support for one table: the one that stores it in the
 * fewest bytes while keeping its write rate and its Gets' p99 within {@link #TOLERANCE} of NONE's;
 * when no codec does, the one of fewest bytes all the same, marked with what it costs beyond that,
 * so that choosing it needs a reason written beside it.
 */
final class StorageChoice {
  /** How much of NONE's write rate, and how much more read p99, a codec may cost unremarked. */
  static final double TOLERANCE = 0.10;

  static final String NONE = "NONE";

  /** One codec's figures for a table. */
  record Measured(String codec, long bytes, double writeCellsPerSecond, double p99Millis) {
    Measured {
      Objects.requireNonNull(codec, "codec is null");
    }
  }

  /**
   * The codec chosen and its figures as ratios to NONE's; {@code withinTolerance} false when it
   * costs more than the tolerance (the note says what).
   */
  record Choice(
      String codec,
      boolean withinTolerance,
      double bytesRatio,
      double writeRatio,
      double p99Ratio,
      String note) {}

  private StorageChoice() {}

  /** The choice among {@code codecs}, which must include {@link #NONE}. */
  static Choice choose(List<Measured> codecs) {
    Measured none =
        codecs.stream()
            .filter(m -> m.codec().equals(NONE))
            .findFirst()
            .orElseThrow(() -> new IllegalArgumentException("the figures have no NONE"));
    List<Measured> smaller =
        codecs.stream()
            .filter(m -> !m.codec().equals(NONE) && m.bytes() < none.bytes())
            .sorted(Comparator.comparingLong(Measured::bytes))
            .toList();
    if (smaller.isEmpty()) {
      return new Choice(NONE, true, 1, 1, 1, "no codec stores it in fewer bytes than NONE");
    }
    for (Measured m : smaller) {
      if (writeRatio(m, none) >= 1 - TOLERANCE && p99Ratio(m, none) <= 1 + TOLERANCE) {
        return choice(
            m,
            none,
            true,
            String.format(
                Locale.ROOT,
                "the fewest bytes within %.0f %% of NONE's write rate and read p99",
                TOLERANCE * 100));
      }
    }
    Measured m = smaller.get(0);
    return choice(
        m,
        none,
        false,
        "COST beyond "
            + String.format(Locale.ROOT, "%.0f %%", TOLERANCE * 100)
            + " of NONE's: "
            + costs(m, none)
            + String.format(
                Locale.ROOT,
                " for %.0f %% fewer bytes; no codec stays within it",
                (1 - (double) m.bytes() / none.bytes()) * 100));
  }

  private static Choice choice(Measured m, Measured none, boolean within, String note) {
    return new Choice(
        m.codec(),
        within,
        (double) m.bytes() / none.bytes(),
        writeRatio(m, none),
        p99Ratio(m, none),
        note);
  }

  /** The costs beyond the tolerance, e.g. {@code write rate -14 %, read p99 +32 %}. */
  private static String costs(Measured m, Measured none) {
    StringBuilder out = new StringBuilder();
    double write = writeRatio(m, none);
    if (write < 1 - TOLERANCE) {
      out.append(String.format(Locale.ROOT, "write rate %+.0f %%", (write - 1) * 100));
    }
    double p99 = p99Ratio(m, none);
    if (p99 > 1 + TOLERANCE) {
      if (out.length() > 0) {
        out.append(", ");
      }
      out.append(String.format(Locale.ROOT, "read p99 %+.0f %%", (p99 - 1) * 100));
    }
    return out.toString();
  }

  static double writeRatio(Measured m, Measured none) {
    return m.writeCellsPerSecond() / none.writeCellsPerSecond();
  }

  static double p99Ratio(Measured m, Measured none) {
    return m.p99Millis() / none.p99Millis();
  }
}
