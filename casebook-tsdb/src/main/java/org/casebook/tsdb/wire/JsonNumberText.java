package org.casebook.tsdb.wire;

import com.fasterxml.jackson.core.io.NumberOutput;
import java.nio.charset.StandardCharsets;

/**
 * The values of a query answer's {@code dps} as JSON text, written straight into a byte array: the
 * same text as Jackson's writer with its fast double writer (the shortest decimal that reads back
 * as the same double, the one closest to it, printed as Java 19's {@code Double.toString} prints
 * it), without a String per value. A month of hourly values by host is tens of thousands of them.
 *
 * <p>Doubles from 0.001 to 10^7 (what most answers hold) are written here; others by Jackson's
 * writer and copied. NaN and the infinities are written as JSON strings, as OpenTSDB writes them.
 */
final class JsonNumberText {
  /** The longest text written: a sign, 17 digits, a point, an exponent and its sign, or quotes. */
  static final int MAX_BYTES = 32;

  /** 10^0 … 10^19; the last one read as an unsigned long. */
  private static final long[] POWERS_OF_TEN = new long[20];

  /** "00" to "99". */
  private static final byte[] DIGIT_PAIRS = new byte[200];

  private static final long MANTISSA_MASK = (1L << 52) - 1;
  private static final byte[] NAN = quoted("NaN");
  private static final byte[] POSITIVE_INFINITY = quoted("Infinity");
  private static final byte[] NEGATIVE_INFINITY = quoted("-Infinity");
  private static final byte[] ZERO = ascii("0.0");
  private static final byte[] NEGATIVE_ZERO = ascii("-0.0");

  static {
    long p = 1;
    for (int i = 0; i < POWERS_OF_TEN.length; i++) {
      POWERS_OF_TEN[i] = p;
      p *= 10;
    }
    for (int i = 0; i < 100; i++) {
      DIGIT_PAIRS[2 * i] = (byte) ('0' + i / 10);
      DIGIT_PAIRS[2 * i + 1] = (byte) ('0' + i % 10);
    }
  }

  private JsonNumberText() {}

  /** Writes {@code value} at {@code out[at]} (room for {@link #MAX_BYTES}); the end of it. */
  static int writeLong(long value, byte[] out, int at) {
    if (value == Long.MIN_VALUE) {
      return copy(ascii(Long.toString(value)), out, at);
    }
    int pos = at;
    long v = value;
    if (v < 0) {
      out[pos++] = '-';
      v = -v;
    }
    return writeDigits(v, digitCount(v), out, pos);
  }

  /** Writes {@code value} at {@code out[at]} (room for {@link #MAX_BYTES}); the end of it. */
  static int writeDouble(double value, byte[] out, int at) {
    if (Double.isNaN(value)) {
      return copy(NAN, out, at);
    }
    if (Double.isInfinite(value)) {
      return copy(value > 0 ? POSITIVE_INFINITY : NEGATIVE_INFINITY, out, at);
    }
    if (value == 0) {
      return copy(Double.doubleToRawLongBits(value) < 0 ? NEGATIVE_ZERO : ZERO, out, at);
    }
    double magnitude = Math.abs(value);
    long bits = Double.doubleToRawLongBits(magnitude);
    long fraction = bits & MANTISSA_MASK;
    // A power of two has a closer neighbour below than above: left to Jackson's writer.
    if (magnitude < 1e-3 || magnitude >= 1e7 || fraction == 0) {
      return fallback(value, out, at);
    }
    long mantissa = fraction | (1L << 52);
    // magnitude = mantissa / 2^shift, with shift in [29, 62] in this range.
    int shift = 1075 - (int) (bits >>> 52);
    int most = mostFractionDigits(magnitude);
    long[] found = new long[1];
    // Fewer fraction digits never read back when more do not; the least that do is the shortest.
    // Most values need all 17 significant digits or one fewer: those are tried first.
    int high;
    long digits;
    if (nearestWithin(mantissa, shift, most - 1, found)) {
      high = most - 1;
      digits = found[0];
    } else if (nearestWithin(mantissa, shift, most, found)) {
      return finish(value, found[0], most, out, at);
    } else {
      return fallback(value, out, at);
    }
    if (nearestWithin(mantissa, shift, high - 1, found)) {
      high--;
      digits = found[0];
      int low = 0;
      while (low < high) {
        int mid = (low + high) >>> 1;
        if (nearestWithin(mantissa, shift, mid, found)) {
          high = mid;
          digits = found[0];
        } else {
          low = mid + 1;
        }
      }
    }
    return finish(value, digits, high, out, at);
  }

  /** Writes the decimal {@code digits / 10^fractionDigits} with {@code value}'s sign. */
  private static int finish(double value, long digits, int fractionDigits, byte[] out, int at) {
    if (!plainRange(digits, fractionDigits)) {
      return fallback(value, out, at);
    }
    int pos = at;
    if (value < 0) {
      out[pos++] = '-';
    }
    return writePlain(digits, fractionDigits, out, pos);
  }

  /**
   * Fraction digits that give 17 significant digits (always enough to read back), or one more when
   * the magnitude's first digit is not certain from a comparison with a double.
   */
  private static int mostFractionDigits(double magnitude) {
    if (magnitude >= 1) {
      int integerDigits = 1;
      while (integerDigits < 7 && magnitude >= POWERS_OF_TEN[integerDigits]) {
        integerDigits++;
      }
      return 17 - integerDigits;
    }
    int zeros = (magnitude < 0.1 ? 1 : 0) + (magnitude < 0.01 ? 1 : 0);
    return Math.min(19, 18 + zeros);
  }

  /**
   * Whether the integer nearest to {@code mantissa / 2^shift * 10^fractionDigits} (ties to even),
   * read as that many fraction digits, reads back as the same double; it is put in {@code
   * nearest[0]}. Exact: the product is computed in 128 bits.
   */
  private static boolean nearestWithin(
      long mantissa, int shift, int fractionDigits, long[] nearest) {
    long power = POWERS_OF_TEN[fractionDigits];
    long productLow = mantissa * power;
    // The unsigned high half: the power may be above Long.MAX_VALUE, the mantissa never is.
    long productHigh = Math.multiplyHigh(mantissa, power) + ((power >> 63) & mantissa);
    long quotient = (productHigh << (64 - shift)) | (productLow >>> shift);
    long remainder = productLow & ((1L << shift) - 1);
    long half = 1L << (shift - 1);
    // Rounded up when above half, or at half with an odd quotient (ties to even); branch-free,
    // since which way a value rounds is a coin toss the processor cannot predict.
    long above = (half - remainder) >>> 63;
    long atHalf = ((remainder ^ half) - 1) >>> 63;
    long up = above | (atHalf & quotient);
    up &= 1;
    quotient += up;
    long distance = remainder + up * ((1L << shift) - 2 * remainder);
    nearest[0] = quotient;
    // The decimal reads back as the double when it is less than half a unit of the mantissa
    // away (scaled by 10^fractionDigits); exactly half reads back as the even mantissa.
    int c = Long.compareUnsigned(2 * distance, power);
    return c < 0 || (c == 0 && (mantissa & 1) == 0);
  }

  /** Whether the decimal is in [10^-3, 10^7), where Java prints it without an exponent. */
  private static boolean plainRange(long digits, int fractionDigits) {
    if (fractionDigits >= 3 && digits < POWERS_OF_TEN[fractionDigits - 3]) {
      return false;
    }
    return fractionDigits + 7 > 18 || digits < POWERS_OF_TEN[fractionDigits + 7];
  }

  /** {@code digits} with a point {@code fractionDigits} from the right, at least one digit each. */
  private static int writePlain(long digits, int fractionDigits, byte[] out, int at) {
    int count = digitCount(digits);
    int pos = at;
    if (fractionDigits == 0) {
      pos = writeDigits(digits, count, out, pos);
      out[pos++] = '.';
      out[pos++] = '0';
      return pos;
    }
    if (count <= fractionDigits) {
      out[pos++] = '0';
      out[pos++] = '.';
      for (int i = count; i < fractionDigits; i++) {
        out[pos++] = '0';
      }
      return writeDigits(digits, count, out, pos);
    }
    int end = writeDigits(digits, count, out, pos + 1);
    // Shift the integer digits one place left to open the point's place.
    int integerDigits = count - fractionDigits;
    for (int k = 0; k < integerDigits; k++) {
      out[pos + k] = out[pos + 1 + k];
    }
    out[pos + integerDigits] = '.';
    return end;
  }

  /** The digits of {@code v} (not negative): from its bit length, then one comparison. */
  private static int digitCount(long v) {
    int bits = 64 - Long.numberOfLeadingZeros(v | 1);
    // 1233 / 4096 is just above log10(2): the estimate is the count or one less.
    int estimate = (bits * 1233) >>> 12;
    return estimate < POWERS_OF_TEN.length - 1 && v >= POWERS_OF_TEN[estimate]
        ? estimate + 1
        : Math.max(estimate, 1);
  }

  /** Writes the {@code count} digits of {@code v} (not negative) at {@code at}; the end. */
  private static int writeDigits(long v, int count, byte[] out, int at) {
    int end = at + count;
    int i = end;
    long rest = v;
    // Eight digits at a time, their four pairs computed independently of each other.
    while (rest >= 100_000_000L) {
      long higher = rest / 100_000_000L;
      writeEight((int) (rest - higher * 100_000_000L), out, i - 8);
      i -= 8;
      rest = higher;
    }
    int high = (int) rest;
    while (high >= 100) {
      int higher = high / 100;
      int pair = high - higher * 100;
      out[--i] = DIGIT_PAIRS[2 * pair + 1];
      out[--i] = DIGIT_PAIRS[2 * pair];
      high = higher;
    }
    if (high >= 10) {
      out[--i] = DIGIT_PAIRS[2 * high + 1];
      out[--i] = DIGIT_PAIRS[2 * high];
    } else {
      out[--i] = (byte) ('0' + high);
    }
    return end;
  }

  /** Writes {@code eight} (below 10^8) as exactly eight digits at {@code at}. */
  private static void writeEight(int eight, byte[] out, int at) {
    int upper = eight / 10_000;
    int lower = eight - upper * 10_000;
    int p1 = upper / 100;
    int p2 = upper - p1 * 100;
    int p3 = lower / 100;
    int p4 = lower - p3 * 100;
    out[at] = DIGIT_PAIRS[2 * p1];
    out[at + 1] = DIGIT_PAIRS[2 * p1 + 1];
    out[at + 2] = DIGIT_PAIRS[2 * p2];
    out[at + 3] = DIGIT_PAIRS[2 * p2 + 1];
    out[at + 4] = DIGIT_PAIRS[2 * p3];
    out[at + 5] = DIGIT_PAIRS[2 * p3 + 1];
    out[at + 6] = DIGIT_PAIRS[2 * p4];
    out[at + 7] = DIGIT_PAIRS[2 * p4 + 1];
  }

  private static int fallback(double value, byte[] out, int at) {
    return copy(ascii(NumberOutput.toString(value, true)), out, at);
  }

  private static int copy(byte[] text, byte[] out, int at) {
    System.arraycopy(text, 0, out, at, text.length);
    return at + text.length;
  }

  private static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }

  private static byte[] quoted(String s) {
    return ascii('"' + s + '"');
  }
}
