package org.casebook.core.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.Function;
import org.apache.hadoop.hbase.util.Bytes;
import org.casebook.core.key.KeyLayout;
import org.casebook.core.key.KeyLayout.Part;

/**
 * The property every key layout must have, checked on random values: ids with separators, ids that
 * are prefixes of each other, CJK and other non-ASCII text, empty strings, extreme numbers. For
 * each: {@code decode(encode(x)) = x}; and for each pair, the byte order of the keys equals the
 * declared order of the values. Modules run it on every layout they declare.
 */
public final class KeyLayoutChecks {
  private static final String[] WORDS = {
    "",
    "a",
    "a\u0000",
    "a\u0000b",
    "ab",
    "a_b",
    "a,b",
    "a|b",
    "a/b",
    "1",
    "10",
    "100",
    "1_",
    "10001",
    "用户",
    "用户1",
    "用户_2",
    "\uD83D\uDE00",
    "\uFFFF",
    "\u00FF",
    "\u0001",
    "zz",
    " "
  };

  private KeyLayoutChecks() {}

  /** Checks {@code samples} random tuples (and every pair of a subset) of {@code layout}. */
  public static void verify(KeyLayout layout, int samples) {
    verify(layout, samples, part -> null);
  }

  /**
   * As {@link #verify(KeyLayout, int)}, with per-part value generators where the layout needs
   * values in a range (a region id below its region count is already handled); {@code custom}
   * returns null for parts it leaves to the defaults.
   */
  public static void verify(
      KeyLayout layout, int samples, Function<Part, Function<Random, Object>> custom) {
    Random random = new Random(layout.name().hashCode());
    List<List<Object>> tuples = new ArrayList<>();
    for (int i = 0; i < samples; i++) {
      List<Object> values = new ArrayList<>();
      for (Part p : layout.givenParts()) {
        Function<Random, Object> gen = custom.apply(p);
        values.add(gen != null ? gen.apply(random) : value(p, random));
      }
      tuples.add(values);
    }
    List<byte[]> keys = new ArrayList<>();
    for (List<Object> t : tuples) {
      byte[] key = layout.encode(t.toArray());
      List<Object> back = layout.decode(key).values();
      assertThat(back.size()).isEqualTo(t.size());
      for (int i = 0; i < t.size(); i++) {
        if (t.get(i) instanceof byte[] b) {
          assertThat((byte[]) back.get(i)).as(layout.name() + " part " + i).isEqualTo(b);
        } else {
          assertThat(back.get(i)).as(layout.name() + " part " + i + " of " + t).isEqualTo(t.get(i));
        }
      }
      assertThat(layout.range(t.toArray()).contains(key)).isTrue();
      keys.add(key);
    }
    int pairs = Math.min(tuples.size(), 200);
    for (int i = 0; i < pairs; i++) {
      for (int j = 0; j < pairs; j++) {
        int declared = Integer.signum(layout.declaredOrder().compare(tuples.get(i), tuples.get(j)));
        int bytes = Integer.signum(Bytes.compareTo(keys.get(i), keys.get(j)));
        assertThat(bytes)
            .as(layout.name() + ": " + tuples.get(i) + " vs " + tuples.get(j))
            .isEqualTo(declared);
      }
    }
    // A prefix of the first given part never matches another value of that part.
    for (int i = 0; i < pairs; i++) {
      for (int j = 0; j < pairs; j++) {
        Object a = tuples.get(i).get(0);
        Object b = tuples.get(j).get(0);
        boolean same = a instanceof byte[] x ? Arrays.equals(x, (byte[]) b) : a.equals(b);
        assertThat(layout.range(a).contains(keys.get(j)))
            .as(layout.name() + " prefix " + a + " vs " + b)
            .isEqualTo(same);
      }
    }
  }

  private static Object value(Part p, Random r) {
    return switch (p.type()) {
      case BYTE -> r.nextInt(256);
      case INT -> pick(r, Integer.MIN_VALUE, -1, 0, 1, Integer.MAX_VALUE, r.nextInt());
      case LONG -> pickLong(r, Long.MIN_VALUE, -1, 0, 1, Long.MAX_VALUE, r.nextLong());
      case REVERSE_TIMESTAMP ->
          pickLong(r, 0, 1, Long.MAX_VALUE, 1_767_225_600_000L, r.nextLong() & Long.MAX_VALUE);
      case STRING, REVERSED_STRING -> text(r);
      case BYTES, TAIL -> text(r).getBytes(java.nio.charset.StandardCharsets.UTF_8);
      case FIXED -> {
        byte[] b = new byte[p.size()];
        r.nextBytes(b);
        yield b;
      }
      case REGION_ID -> r.nextInt(p.size());
      case SALT, HASH -> throw new IllegalStateException("derived");
    };
  }

  private static String text(Random r) {
    String s = WORDS[r.nextInt(WORDS.length)];
    return r.nextBoolean() ? s : s + WORDS[r.nextInt(WORDS.length)];
  }

  private static int pick(Random r, int... values) {
    return values[r.nextInt(values.length)];
  }

  private static long pickLong(Random r, long... values) {
    return values[r.nextInt(values.length)];
  }
}
