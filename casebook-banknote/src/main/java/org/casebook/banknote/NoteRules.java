package org.casebook.banknote;

import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.casebook.core.InvalidInputException;

/**
 * What a valid note looks like: the serial-number rule and the denominations of the currencies the
 * collector knows. A record breaking them is rejected with its reason, never stored.
 */
public final class NoteRules {
  /** FSN keeps up to 12 serial characters (CharNUM); RMB serials have 10. */
  public static final int MAX_SERIAL = 12;

  public static final int MIN_SERIAL = 6;

  /** Serial length of every RMB note. */
  public static final int CNY_SERIAL = 10;

  /** Longest device, branch and batch ids. */
  public static final int MAX_ID = 64;

  /** Longest source (file or sequence) name. */
  public static final int MAX_SOURCE = 255;

  /** Largest serial image kept (FSN's ImageSNo block is 1,544 bytes). */
  public static final int MAX_IMAGE = 8 * 1024;

  /** Banknote denominations, in whole units, of the currencies the collector accepts. */
  static final Map<String, Set<Integer>> DENOMINATIONS =
      Map.of(
          "CNY", Set.of(1, 5, 10, 20, 50, 100),
          "USD", Set.of(1, 2, 5, 10, 20, 50, 100),
          "EUR", Set.of(5, 10, 20, 50, 100, 200, 500),
          "HKD", Set.of(10, 20, 50, 100, 500, 1000),
          "GBP", Set.of(5, 10, 20, 50),
          "JPY", Set.of(1000, 2000, 5000, 10000));

  private NoteRules() {}

  /**
   * The serial as stored: ASCII letters upper-cased, every other character kept as the device
   * reported it (unreadable positions are often '_'). 6 to 12 printable ASCII characters, no
   * spaces; exactly 10 for CNY when {@code currency} is given.
   */
  public static String serial(String raw, String currency) {
    InvalidInputException.check(raw != null && !raw.isEmpty(), "serial", "serial is required");
    int n = raw.length();
    // Messages are built only on failure: these checks run for every note the collector takes.
    if (n < MIN_SERIAL || n > MAX_SERIAL) {
      throw new InvalidInputException(
          "serial",
          "serial must have " + MIN_SERIAL + " to " + MAX_SERIAL + " characters, got " + n);
    }
    char[] out = new char[n];
    for (int i = 0; i < n; i++) {
      char c = raw.charAt(i);
      if (c < 0x21 || c > 0x7E) {
        throw new InvalidInputException(
            "serial",
            String.format(
                Locale.ROOT,
                "serial may hold only printable ASCII characters; U+%04X at position %d",
                (int) c,
                i + 1));
      }
      out[i] = c >= 'a' && c <= 'z' ? (char) (c - 32) : c;
    }
    if ("CNY".equals(currency) && n != CNY_SERIAL) {
      throw new InvalidInputException(
          "serial", "an RMB serial has " + CNY_SERIAL + " characters, got " + n);
    }
    return new String(out);
  }

  /** The currency code, upper-cased; it must be one the collector knows. */
  public static String currency(String raw) {
    InvalidInputException.check(raw != null && !raw.isEmpty(), "currency", "currency is required");
    String c = raw.toUpperCase(Locale.ROOT);
    if (!DENOMINATIONS.containsKey(c)) {
      throw new InvalidInputException(
          "currency",
          "unknown currency '" + raw + "'; known: " + String.join(", ", knownCurrencies()));
    }
    return c;
  }

  /** Checks that {@code denomination} is a note of {@code currency}. */
  public static int denomination(int denomination, String currency) {
    Set<Integer> known = DENOMINATIONS.get(currency);
    if (known == null || !known.contains(denomination)) {
      throw new InvalidInputException(
          "denomination", "unknown denomination " + denomination + " for " + currency);
    }
    return denomination;
  }

  static java.util.List<String> knownCurrencies() {
    return DENOMINATIONS.keySet().stream().sorted().toList();
  }
}
