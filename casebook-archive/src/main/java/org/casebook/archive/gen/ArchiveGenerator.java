package org.casebook.archive.gen;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.SplittableRandom;
import org.casebook.core.InvalidInputException;
import org.casebook.core.Json;
import org.casebook.core.LocalFileException;

/**
 * Writes Weibo-API-style archive files: many files of many users each, one user object per line,
 * each with profile, follower/friend ids and statuses (with geo and reposts). Can plant bad files
 * (truncated, invalid JSON, wrong types, invalid UTF-8) and one file far larger than the rest
 * (valid: it must be streamed, not rejected).
 */
public final class ArchiveGenerator {
  /** What to write. */
  public record Spec(
      int files,
      int usersPerFile,
      int statusesPerUser,
      boolean plantBadFiles,
      int bigFileFactor,
      long seed) {
    public Spec {
      InvalidInputException.check(
          files >= 1 && files <= 100_000, "files", "files must be 1..100000");
      InvalidInputException.check(
          usersPerFile >= 1, "users-per-file", "users per file must be positive");
      InvalidInputException.check(
          statusesPerUser >= 0, "statuses", "statuses per user must not be negative");
      InvalidInputException.check(
          bigFileFactor >= 0, "big-file", "big file factor must not be negative");
    }
  }

  /** The files written, and which were planted as bad. */
  public record Written(
      List<Path> files, List<Path> badFiles, Path bigFile, long users, long statuses, long bytes) {}

  private static final DateTimeFormatter WEIBO_TIME =
      DateTimeFormatter.ofPattern("EEE MMM dd HH:mm:ss Z yyyy", Locale.ROOT)
          .withZone(ZoneOffset.ofHours(8));
  private static final String[] PROVINCES = {"11", "31", "44", "51", "33", "32"};
  private static final String[] SOURCES = {
    "<a href=\"http://weibo.com\">新浪微博</a>",
    "<a href=\"http://app\">iPhone客户端</a>",
    "<a href=\"http://app\">Android客户端</a>"
  };
  private static final String[] WORDS = {
    "今天", "天气", "不错", "HBase", "大数据", "微博", "分享", "图片", "北京", "上海", "hello", "#话题#", "转发", "评论"
  };
  private static final ObjectMapper MAPPER = Json.mapper();

  private ArchiveGenerator() {}

  /** User ids are 10-digit numbers, as Weibo's were; file k holds users k*usersPerFile… */
  public static String userId(int file, int index, int usersPerFile) {
    return Long.toString(1_000_000_000L + (long) file * usersPerFile + index);
  }

  public static Written write(Spec spec, Path dir) {
    Objects.requireNonNull(dir, "dir is null");
    SplittableRandom rnd = new SplittableRandom(spec.seed());
    List<Path> files = new ArrayList<>();
    List<Path> bad = new ArrayList<>();
    Path big = null;
    long users = 0;
    long statuses = 0;
    long bytes = 0;
    try {
      Files.createDirectories(dir);
      for (int f = 0; f < spec.files(); f++) {
        Path file = dir.resolve(String.format(Locale.ROOT, "weibo-%05d.json", f));
        int badKind = spec.plantBadFiles() && spec.files() >= 6 ? plantedKind(f, spec.files()) : -1;
        boolean isBig = spec.bigFileFactor() > 1 && f == spec.files() - 1 && badKind < 0;
        int usersHere = isBig ? spec.usersPerFile() * spec.bigFileFactor() : spec.usersPerFile();
        long[] counts = writeFile(file, f, usersHere, spec, rnd, badKind);
        files.add(file);
        if (badKind >= 0) {
          bad.add(file);
        } else {
          users += counts[0];
          statuses += counts[1];
        }
        if (isBig) {
          big = file;
        }
        bytes += Files.size(file);
      }
    } catch (IOException e) {
      throw LocalFileException.of("write archive files in", dir, e);
    }
    return new Written(files, bad, big, users, statuses, bytes);
  }

  /**
   * Four of the files, spread over the set, are bad: 0 truncated, 1 invalid JSON, 2 wrong type, 3
   * invalid UTF-8.
   */
  private static int plantedKind(int f, int files) {
    int step = files / 5;
    for (int k = 0; k < 4; k++) {
      if (f == step * (k + 1) - 1) {
        return k;
      }
    }
    return -1;
  }

  private static long[] writeFile(
      Path file, int f, int users, Spec spec, SplittableRandom rnd, int badKind)
      throws IOException {
    long statuses = 0;
    try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(file), 1 << 16)) {
      for (int u = 0; u < users; u++) {
        String uid = userId(f, u, spec.usersPerFile());
        int n = spec.statusesPerUser() == 0 ? 0 : 1 + rnd.nextInt(2 * spec.statusesPerUser());
        byte[] line = userJson(uid, n, rnd, badKind == 2 && u == users / 2);
        statuses += n;
        if (badKind == 3 && u == users / 2) {
          line = line.clone();
          int at = line.length / 2;
          line[at] = (byte) 0xC3;
          line[at + 1] = (byte) 0x28;
        }
        if (badKind == 0 && u == users - 1) {
          out.write(line, 0, line.length / 2); // truncated mid-object at the end of the file
          return new long[] {users, statuses};
        }
        out.write(line);
        if (badKind == 1 && u == users / 2) {
          out.write("{\"user\": {\"id\": 12, ]".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
        out.write('\n');
      }
    }
    return new long[] {users, statuses};
  }

  private static byte[] userJson(String uid, int statuses, SplittableRandom rnd, boolean wrongType)
      throws IOException {
    java.io.ByteArrayOutputStream buf = new java.io.ByteArrayOutputStream(512 + statuses * 300);
    try (JsonGenerator g = MAPPER.getFactory().createGenerator(buf)) {
      long created = 1_300_000_000_000L + rnd.nextLong(60_000_000_000L);
      g.writeStartObject();
      g.writeObjectFieldStart("user");
      g.writeNumberField("id", Long.parseLong(uid));
      g.writeStringField("idstr", uid);
      g.writeStringField("screen_name", "用户" + uid.substring(uid.length() - 4));
      g.writeStringField("name", "user_" + uid);
      g.writeStringField("province", PROVINCES[rnd.nextInt(PROVINCES.length)]);
      g.writeStringField("city", Integer.toString(1 + rnd.nextInt(20)));
      g.writeStringField("location", "北京 海淀区");
      g.writeStringField("description", text(rnd, 6));
      g.writeStringField("gender", rnd.nextBoolean() ? "m" : "f");
      if (wrongType) {
        g.writeStringField("followers_count", "many");
      } else {
        g.writeNumberField("followers_count", rnd.nextInt(100_000));
      }
      g.writeNumberField("friends_count", rnd.nextInt(2000));
      g.writeNumberField("statuses_count", statuses);
      g.writeNumberField("favourites_count", rnd.nextInt(500));
      g.writeStringField("created_at", WEIBO_TIME.format(Instant.ofEpochMilli(created)));
      g.writeBooleanField("verified", rnd.nextInt(20) == 0);
      g.writeEndObject();
      g.writeArrayFieldStart("followers");
      for (int i = 0; i < rnd.nextInt(8); i++) {
        g.writeNumber(1_000_000_000L + rnd.nextInt(1_000_000));
      }
      g.writeEndArray();
      g.writeArrayFieldStart("friends");
      for (int i = 0; i < rnd.nextInt(8); i++) {
        g.writeNumber(1_000_000_000L + rnd.nextInt(1_000_000));
      }
      g.writeEndArray();
      g.writeArrayFieldStart("statuses");
      long ts = created;
      for (int s = 0; s < statuses; s++) {
        ts += rnd.nextLong(1, 3_600_000L * 24);
        long id = 3_000_000_000_000_000L + ts * 10 + rnd.nextInt(10);
        g.writeStartObject();
        g.writeNumberField("id", id);
        g.writeStringField("idstr", Long.toString(id));
        g.writeStringField("created_at", WEIBO_TIME.format(Instant.ofEpochMilli(ts)));
        g.writeStringField("text", text(rnd, 5 + rnd.nextInt(30)));
        g.writeStringField("source", SOURCES[rnd.nextInt(SOURCES.length)]);
        g.writeNumberField("reposts_count", rnd.nextInt(100));
        g.writeNumberField("comments_count", rnd.nextInt(100));
        g.writeNumberField("attitudes_count", rnd.nextInt(100));
        if (rnd.nextInt(10) == 0) {
          g.writeObjectFieldStart("geo");
          g.writeStringField("type", "Point");
          g.writeArrayFieldStart("coordinates");
          g.writeNumber(39.9 + rnd.nextDouble());
          g.writeNumber(116.3 + rnd.nextDouble());
          g.writeEndArray();
          g.writeEndObject();
        } else {
          g.writeNullField("geo");
        }
        if (rnd.nextInt(5) == 0) {
          g.writeObjectFieldStart("retweeted_status");
          g.writeNumberField("id", id - 1_000_000 - rnd.nextInt(1000));
          g.writeObjectFieldStart("user");
          g.writeNumberField("id", 1_000_000_000L + rnd.nextInt(1_000_000));
          g.writeEndObject();
          g.writeEndObject();
        }
        g.writeEndObject();
      }
      g.writeEndArray();
      g.writeEndObject();
    }
    return buf.toByteArray();
  }

  private static String text(SplittableRandom rnd, int words) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < words; i++) {
      sb.append(WORDS[rnd.nextInt(WORDS.length)]);
    }
    return sb.toString();
  }
}
