package org.casebook.trails.gen;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SplittableRandom;
import org.casebook.core.InvalidInputException;
import org.casebook.core.Json;
import org.casebook.core.LocalFileException;
import org.casebook.core.cli.Progress;

/**
 * Writes realistic behaviour logs (JSON lines): many users with heavy-tailed activity, a daily
 * rhythm (quiet nights, busy evenings), a mix of login/play/visit/order, and a chosen share of
 * malformed lines of several kinds. Lines are in time order, written hour by hour.
 */
public final class LogGenerator {
  /** Sizes and shape of the generated log. */
  public record Spec(
      int users, int days, long records, double malformedShare, LocalDate firstDay, long seed) {
    public Spec {
      Objects.requireNonNull(firstDay, "firstDay is null");
      InvalidInputException.check(
          users >= 1 && users <= 100_000_000, "users", "users must be 1..100,000,000");
      InvalidInputException.check(days >= 1 && days <= 366, "days", "days must be 1..366");
      InvalidInputException.check(records >= 1, "records", "records must be positive");
      InvalidInputException.check(
          malformedShare >= 0 && malformedShare < 1,
          "malformed",
          "malformed share must be in [0, 1)");
    }
  }

  /** Counts of what was written. */
  public record Written(Path file, long lines, long malformed, long bytes) {}

  /** Relative activity per hour of day: quiet at night, a peak in the evening. */
  private static final double[] HOURS = {
    2, 1, 0.6, 0.4, 0.4, 0.6, 1.5, 3, 4, 4, 4, 4.5, 5, 4.5, 4, 4, 4.5, 5, 6.5, 8.5, 10, 10, 7, 4
  };

  private static final String[] DEVICES = {
    "stb-hisense", "stb-huawei", "stb-zte", "android-tv", "ios", "web"
  };
  private static final String[] CHANNELS = {
    "movies", "series", "news", "sports", "kids", "music", "documentary"
  };
  private static final String[] PAGES = {
    "home", "search", "detail", "category", "profile", "vip", "live"
  };
  private static final String[] COLUMNS = {
    "recommended", "hot", "new", "free", "vip-only", "classic"
  };

  private LogGenerator() {}

  /** The id of user {@code i}: numeric, as set-top-box user ids are. */
  public static String userId(int i) {
    return Integer.toString(10_000_000 + i);
  }

  public static Written write(Spec spec, Path file, Progress progress) {
    SplittableRandom rnd = new SplittableRandom(spec.seed());
    double hourTotal = 0;
    for (double h : HOURS) {
      hourTotal += h;
    }
    long lines = 0;
    long malformed = 0;
    long bytes = 0;
    try {
      if (file.getParent() != null) {
        Files.createDirectories(file.getParent());
      }
      try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(file), 1 << 16)) {
        double perDay = (double) spec.records() / spec.days();
        double carry = 0;
        for (int d = 0; d < spec.days(); d++) {
          long dayStart =
              spec.firstDay().plusDays(d).atStartOfDay(ZoneOffset.UTC).toInstant().toEpochMilli();
          for (int h = 0; h < 24; h++) {
            double exact = perDay * HOURS[h] / hourTotal + carry;
            int n = (int) Math.floor(exact);
            carry = exact - n;
            if (d == spec.days() - 1 && h == 23) {
              n = (int) (spec.records() - lines);
            }
            long[] times = new long[n];
            for (int i = 0; i < n; i++) {
              times[i] = dayStart + h * 3_600_000L + rnd.nextLong(3_600_000L);
            }
            java.util.Arrays.sort(times);
            for (long ts : times) {
              byte[] line;
              if (rnd.nextDouble() < spec.malformedShare()) {
                line = malformed(rnd, spec, ts);
                malformed++;
              } else {
                line = Json.mapper().writeValueAsBytes(record(rnd, spec, ts));
              }
              out.write(line);
              out.write('\n');
              bytes += line.length + 1;
              lines++;
              progress.advance(1);
            }
          }
        }
      }
    } catch (IOException e) {
      throw LocalFileException.of("write", file, e);
    }
    return new Written(file, lines, malformed, bytes);
  }

  /** A heavy-tailed pick: a few users produce much of the traffic. */
  private static int user(SplittableRandom rnd, int users) {
    return (int) Math.min(users - 1, Math.floor(users * Math.pow(rnd.nextDouble(), 2.5)));
  }

  static Map<String, Object> record(SplittableRandom rnd, Spec spec, long ts) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("uid", userId(user(rnd, spec.users())));
    double kind = rnd.nextDouble();
    m.put("ts", Instant.ofEpochMilli(ts).toString());
    if (kind < 0.15) {
      m.put("type", "login");
      m.put("device", DEVICES[rnd.nextInt(DEVICES.length)]);
      m.put("ip", "10." + rnd.nextInt(256) + "." + rnd.nextInt(256) + "." + rnd.nextInt(1, 255));
    } else if (kind < 0.50) {
      m.put("type", "play");
      m.put("contentId", "c" + (int) Math.floor(100_000 * Math.pow(rnd.nextDouble(), 3)));
      m.put("channel", CHANNELS[rnd.nextInt(CHANNELS.length)]);
      m.put("start", rnd.nextInt(0, 3600));
      m.put("duration", rnd.nextInt(1, 7200));
    } else if (kind < 0.95) {
      m.put("type", "visit");
      m.put("page", PAGES[rnd.nextInt(PAGES.length)]);
      m.put("column", COLUMNS[rnd.nextInt(COLUMNS.length)]);
    } else {
      m.put("type", "order");
      m.put("product", "p" + rnd.nextInt(500));
      m.put("price", rnd.nextInt(1, 10_000) / 100.0);
    }
    return m;
  }

  /** One of several kinds of broken line. */
  static byte[] malformed(SplittableRandom rnd, Spec spec, long ts) throws IOException {
    byte[] good = Json.mapper().writeValueAsBytes(record(rnd, spec, ts));
    switch (rnd.nextInt(7)) {
      case 0 -> { // truncated
        return java.util.Arrays.copyOf(good, Math.max(1, good.length / 2));
      }
      case 1 -> { // not JSON at all
        return ("ERROR " + Instant.ofEpochMilli(ts) + " upload failed")
            .getBytes(StandardCharsets.UTF_8);
      }
      case 2 -> { // a required field missing
        Map<String, Object> m = record(rnd, spec, ts);
        List<String> keys = new ArrayList<>(m.keySet());
        m.remove(keys.get(keys.size() - 1));
        return Json.mapper().writeValueAsBytes(m);
      }
      case 3 -> { // wrong type
        Map<String, Object> m = record(rnd, spec, ts);
        m.put("type", "play");
        m.put("duration", "long");
        m.putIfAbsent("contentId", "c1");
        m.putIfAbsent("channel", "news");
        m.putIfAbsent("start", 0);
        return Json.mapper().writeValueAsBytes(m);
      }
      case 4 -> { // unknown behaviour
        Map<String, Object> m = record(rnd, spec, ts);
        m.put("type", "share");
        return Json.mapper().writeValueAsBytes(m);
      }
      case 5 -> { // unparseable timestamp
        Map<String, Object> m = record(rnd, spec, ts);
        m.put("ts", "2013/09/01 25:61");
        return Json.mapper().writeValueAsBytes(m);
      }
      default -> { // invalid UTF-8 inside a string
        byte[] bad = java.util.Arrays.copyOf(good, good.length);
        int at = Math.min(bad.length - 3, 9);
        bad[at] = (byte) 0xC3;
        bad[at + 1] = (byte) 0x28;
        return bad;
      }
    }
  }
}
