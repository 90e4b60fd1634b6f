package org.casebook.archive.wire;

import static java.nio.charset.StandardCharsets.UTF_8;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import java.io.ByteArrayInputStream;
import java.io.CharConversionException;
import java.io.IOException;
import java.io.InputStream;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.casebook.archive.StatusRecord;
import org.casebook.archive.UserRecord;
import org.casebook.archive.wire.BadInputException.Defect;
import org.casebook.core.Json;

/**
 * Streams a file of Weibo-API-style user objects — one after another (JSON lines or concatenated) —
 * without loading it whole: the profile is read as a tree, followers/friends id arrays and the
 * statuses array element by element. A file far larger than memory is read in constant space. Any
 * structural or type error makes the whole file bad; a salvaging read ({@link #readSalvaging}) sets
 * aside only the user object it is in, as long as the objects can still be told apart.
 *
 * <pre>
 * {"user":{"id":…,"screen_name":…,…},"followers":[ids],"friends":[ids],"statuses":[{"id":…,"created_at":…,"text":…,…}]}
 * </pre>
 */
public final class ArchiveReader {
  /** Receives the records of a file in order. */
  public interface Sink {
    void user(UserRecord user) throws IOException;

    void status(StatusRecord status) throws IOException;
  }

  /** The shared mapper's parser: as strict as request bodies (duplicate keys make a file bad). */
  private static final JsonFactory FACTORY = Json.mapper().getFactory();

  /**
   * Reads one value of a stream as a tree; the rest of the stream follows it, so no trailing-token
   * check.
   */
  private static final ObjectReader TREES =
      Json.mapper().reader().without(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

  static final int MAX_TEXT = 10_000;

  enum Kind {
    TEXT,
    COUNT,
    FLAG,
    TIME
  }

  private ArchiveReader() {}

  /** The JSON kind of each profile field the archive keeps ({@link UserRecord#PROFILE_FIELDS}). */
  static Kind kindOf(String profileField) {
    return switch (profileField) {
      case "followers_count", "friends_count", "statuses_count", "favourites_count" -> Kind.COUNT;
      case "created_at" -> Kind.TIME;
      case "verified" -> Kind.FLAG;
      default -> Kind.TEXT;
    };
  }

  /** Opens the file to read, once per attempt. */
  public interface Source {
    InputStream open() throws IOException;
  }

  /** Receives the records a salvaging read sets aside, in file order. */
  public interface Rejects {
    void reject(Rejected rejected) throws IOException;
  }

  /**
   * A record (one user object) set aside by a salvaging read.
   *
   * @param index the record's place in the file, from 0
   * @param start the byte offset of its opening brace
   * @param end the byte offset just past its closing brace
   * @param reason what is wrong ({@link BadInputException.Defect#label()}), the key of the counts
   * @param detail the reader's message
   * @param text the record as UTF-8 text, cut to {@link #REJECTED_TEXT_BYTES} bytes
   * @param textCut whether {@code text} was cut
   */
  public record Rejected(
      long index,
      long start,
      long end,
      String reason,
      String detail,
      String text,
      boolean textCut) {
    /** The line of a rejects file this record is, with its newline. */
    public byte[] toJsonLine() throws IOException {
      byte[] json = Json.mapper().writeValueAsBytes(this);
      byte[] line = Arrays.copyOf(json, json.length + 1);
      line[json.length] = '\n';
      return line;
    }

    /** A line of a rejects file read back. */
    public static Rejected fromJsonLine(String line) throws IOException {
      return Json.mapper().readValue(line, Rejected.class);
    }
  }

  /** How much of a set-aside record is kept as evidence. */
  static final int REJECTED_TEXT_BYTES = 1024;

  /** One whole read of a stream, into a sink and (when salvaging) a receiver of rejects. */
  private interface Reading {
    void read(InputStream in, Sink sink, Rejects rejects) throws IOException, BadInputException;
  }

  /**
   * SK-bad for an import: reads a file up to {@code attempts} times until one read succeeds, and
   * delivers its records to {@code sink} only then — a bad file delivers nothing. A file of at most
   * {@code bufferBytes} is parsed once and held as records; a larger one (the "far larger than the
   * rest" file) is checked by a first streaming pass and delivered by a second, so memory stays
   * bounded. Returns the last failure's reason if no read succeeded.
   *
   * @throws IOException if the sink fails, or a file that read cleanly fails on its second pass
   */
  public static Optional<String> readAllOrNothing(
      Source source, long size, int attempts, long bufferBytes, Sink sink) throws IOException {
    return readChecked(
        source,
        size,
        attempts,
        bufferBytes,
        sink,
        rejected -> {
          throw new IllegalStateException("an all-or-nothing read sets nothing aside");
        },
        (in, s, r) -> read(in, s));
  }

  /**
   * Salvage: as {@link #readAllOrNothing}, but a bad record does not make the file bad as long as
   * the records can still be told apart ({@link RecordFrames}): each bad user object goes to {@code
   * rejects} with why, the good ones to {@code sink}. The file is refused whole only when its
   * framing is lost (a brace never closed, text between objects, a record past {@link
   * RecordFrames#MAX_RECORD_BYTES}) or it cannot be read, after {@code attempts} reads.
   */
  public static Optional<String> readSalvaging(
      Source source, long size, int attempts, long bufferBytes, Sink sink, Rejects rejects)
      throws IOException {
    return readChecked(source, size, attempts, bufferBytes, sink, rejects, ArchiveReader::salvage);
  }

  private static Optional<String> readChecked(
      Source source,
      long size,
      int attempts,
      long bufferBytes,
      Sink sink,
      Rejects rejects,
      Reading reading)
      throws IOException {
    String failure = null;
    for (int i = 0; i < attempts; i++) {
      List<Object> held = size <= bufferBytes ? new ArrayList<>() : null;
      try (InputStream in = source.open()) {
        Sink holding = holding(held);
        reading.read(in, holding, rejected -> holding(held, rejected));
      } catch (BadInputException e) {
        failure = e.getMessage();
        continue;
      } catch (IOException e) {
        failure = "read failed: " + e;
        continue;
      }
      if (held != null) {
        deliver(held, sink, rejects);
      } else {
        try (InputStream in = source.open()) {
          reading.read(in, sink, rejects);
        } catch (BadInputException e) {
          throw new IOException(
              "the file read cleanly, then failed on its second pass: " + e.getMessage(), e);
        }
      }
      return Optional.empty();
    }
    return Optional.ofNullable(failure);
  }

  /** A sink that adds to {@code held}, or drops everything when it is null (a checking pass). */
  private static Sink holding(List<Object> held) {
    return new Sink() {
      @Override
      public void user(UserRecord user) {
        holding(held, user);
      }

      @Override
      public void status(StatusRecord status) {
        holding(held, status);
      }
    };
  }

  private static void holding(List<Object> held, Object item) {
    if (held != null) {
      held.add(item);
    }
  }

  private static void deliver(List<Object> held, Sink sink, Rejects rejects) throws IOException {
    for (Object r : held) {
      if (r instanceof UserRecord u) {
        sink.user(u);
      } else if (r instanceof StatusRecord s) {
        sink.status(s);
      } else {
        rejects.reject((Rejected) r);
      }
    }
  }

  /**
   * Reads the user objects of the stream one by one: each is parsed on its own, so a bad one is
   * rejected and the next is read as if nothing happened. A user object is delivered only once all
   * of it (profile and statuses) has read cleanly.
   */
  static void salvage(InputStream in, Sink sink, Rejects rejects)
      throws IOException, BadInputException {
    RecordFrames frames = new RecordFrames(in);
    List<Object> one = new ArrayList<>();
    long index = 0;
    byte[] record;
    while ((record = frames.next()) != null) {
      one.clear();
      try {
        read(new ByteArrayInputStream(record), holding(one));
        deliver(one, sink, rejects);
      } catch (BadInputException e) {
        rejects.reject(rejected(index, frames.start(), frames.end(), e, record));
      }
      index++;
    }
  }

  static Rejected rejected(long index, long start, long end, BadInputException e, byte[] record) {
    boolean cut = record.length > REJECTED_TEXT_BYTES;
    return new Rejected(
        index,
        start,
        end,
        e.defect().label(),
        e.getMessage(),
        new String(record, 0, Math.min(record.length, REJECTED_TEXT_BYTES), UTF_8),
        cut);
  }

  /** Reads every user of the stream into {@code sink}; returns the number of users. */
  static long read(InputStream in, Sink sink) throws IOException, BadInputException {
    long users = 0;
    try (JsonParser p = FACTORY.createParser(in)) {
      JsonToken t;
      while ((t = p.nextToken()) != null) {
        if (t != JsonToken.START_OBJECT) {
          throw new BadInputException("expected a user object at " + where(p) + ", found " + t);
        }
        readUser(p, sink);
        users++;
      }
      return users;
    } catch (com.fasterxml.jackson.core.io.JsonEOFException e) {
      throw new BadInputException(Defect.TRUNCATED, "truncated file: " + e.getOriginalMessage(), e);
    } catch (JsonParseException e) {
      String msg = e.getOriginalMessage();
      if (msg.startsWith("Unexpected end-of-input")) {
        throw new BadInputException(
            Defect.TRUNCATED, "truncated file: " + msg + " at " + where(e), e);
      }
      boolean utf8 = msg.contains("UTF-8") || msg.contains("UTF8");
      throw new BadInputException(
          utf8 ? Defect.INVALID_UTF8 : Defect.INVALID_JSON,
          (utf8 ? "invalid UTF-8: " : "invalid JSON: ") + msg + " at " + where(e),
          e);
    } catch (CharConversionException e) {
      throw new BadInputException(Defect.INVALID_UTF8, "invalid UTF-8: " + e.getMessage(), e);
    }
  }

  private static void readUser(JsonParser p, Sink sink) throws IOException, BadInputException {
    String uid = null;
    List<String> followers = new ArrayList<>();
    List<String> friends = new ArrayList<>();
    boolean userWritten = false;
    UserRecord pending = null;
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String field = p.currentName();
      JsonToken v = p.nextToken();
      switch (field) {
        case "user" -> {
          if (v != JsonToken.START_OBJECT) {
            throw new BadInputException("'user' must be an object at " + where(p));
          }
          JsonNode user = TREES.readTree(p);
          uid = id(user.get("id"), "user.id");
          pending = new UserRecord(uid, profile(user), List.of(), List.of());
        }
        case "followers", "friends" -> {
          List<String> target = field.equals("followers") ? followers : friends;
          if (v != JsonToken.START_ARRAY) {
            throw new BadInputException("'" + field + "' must be an array of ids at " + where(p));
          }
          while (p.nextToken() != JsonToken.END_ARRAY) {
            target.add(id(TREES.readTree(p), field));
          }
        }
        case "statuses" -> {
          if (uid == null) {
            throw new BadInputException("'statuses' before 'user' at " + where(p));
          }
          if (v != JsonToken.START_ARRAY) {
            throw new BadInputException("'statuses' must be an array at " + where(p));
          }
          // The user row goes first so that a reader of the sink sees users before their statuses.
          if (!userWritten) {
            sink.user(new UserRecord(uid, pending.profile(), followers, friends));
            userWritten = true;
          }
          while (p.nextToken() == JsonToken.START_OBJECT) {
            sink.status(status(TREES.readTree(p), uid));
          }
          if (p.currentToken() != JsonToken.END_ARRAY) {
            throw new BadInputException("'statuses' must hold objects at " + where(p));
          }
        }
        default -> p.skipChildren();
      }
    }
    if (uid == null) {
      throw new BadInputException(
          Defect.MISSING_FIELD, "user object without 'user' at " + where(p));
    }
    if (!userWritten) {
      sink.user(new UserRecord(uid, pending.profile(), followers, friends));
    }
  }

  static Map<String, String> profile(JsonNode user) throws BadInputException {
    Map<String, String> out = new LinkedHashMap<>();
    for (String f : UserRecord.PROFILE_FIELDS) {
      JsonNode v = user.get(f);
      if (v == null || v.isNull()) {
        continue;
      }
      out.put(f, value(v, kindOf(f), "user." + f));
    }
    return out;
  }

  static StatusRecord status(JsonNode s, String uid) throws BadInputException {
    long id = Long.parseLong(id(s.get("id"), "status.id"));
    JsonNode text = s.get("text");
    if (text == null || !text.isTextual() || text.asText().length() > MAX_TEXT) {
      throw new BadInputException(
          text == null ? Defect.MISSING_FIELD : Defect.WRONG_VALUE,
          "status " + id + ": 'text' must be a string of at most " + MAX_TEXT + " characters");
    }
    JsonNode created = s.get("created_at");
    if (created == null || !created.isTextual()) {
      throw new BadInputException(
          created == null ? Defect.MISSING_FIELD : Defect.WRONG_VALUE,
          "status " + id + ": 'created_at' is required");
    }
    String geo = null;
    JsonNode g = s.get("geo");
    if (g != null && !g.isNull()) {
      JsonNode c = g.get("coordinates");
      if (c == null
          || !c.isArray()
          || c.size() != 2
          || !c.get(0).isNumber()
          || !c.get(1).isNumber()) {
        throw new BadInputException("status " + id + ": 'geo.coordinates' must be [lat, lon]");
      }
      geo = c.get(0).asText() + "," + c.get(1).asText();
    }
    String retweetedId = null;
    String retweetedUid = null;
    JsonNode rt = s.get("retweeted_status");
    if (rt != null && !rt.isNull()) {
      retweetedId = id(rt.get("id"), "retweeted_status.id");
      JsonNode ru = rt.get("user");
      retweetedUid =
          ru == null || ru.isNull() ? null : id(ru.get("id"), "retweeted_status.user.id");
    }
    JsonNode source = s.get("source");
    return new StatusRecord(
        id,
        uid,
        Long.parseLong(value(created, Kind.TIME, "status.created_at")),
        text.asText(),
        source == null || source.isNull() ? "" : value(source, Kind.TEXT, "status.source"),
        count(s, "reposts_count"),
        count(s, "comments_count"),
        count(s, "attitudes_count"),
        geo,
        retweetedId,
        retweetedUid);
  }

  private static long count(JsonNode s, String field) throws BadInputException {
    JsonNode v = s.get(field);
    return v == null || v.isNull() ? 0 : Long.parseLong(value(v, Kind.COUNT, "status." + field));
  }

  /** A positive integer id, given as a number or a numeric string ("idstr" style). */
  static String id(JsonNode v, String what) throws BadInputException {
    if (v != null && v.isIntegralNumber() && v.canConvertToLong() && v.asLong() > 0) {
      return Long.toString(v.asLong());
    }
    if (v != null && v.isTextual() && v.asText().matches("[1-9][0-9]{0,18}")) {
      try {
        return Long.toString(Long.parseLong(v.asText()));
      } catch (NumberFormatException tooLarge) {
        throw new BadInputException("'" + what + "' is out of range: " + v.asText());
      }
    }
    throw new BadInputException(
        v == null ? Defect.MISSING_FIELD : Defect.WRONG_VALUE,
        "'"
            + what
            + "' must be a positive integer id, got "
            + (v == null ? "nothing" : v.toString()));
  }

  static String value(JsonNode v, Kind kind, String what) throws BadInputException {
    switch (kind) {
      case TEXT -> {
        if (!v.isTextual() || v.asText().length() > MAX_TEXT) {
          throw new BadInputException("'" + what + "' must be a string");
        }
        return v.asText();
      }
      case COUNT -> {
        if (!v.isIntegralNumber() || !v.canConvertToLong() || v.asLong() < 0) {
          throw new BadInputException("'" + what + "' must be a non-negative integer, got " + v);
        }
        return Long.toString(v.asLong());
      }
      case FLAG -> {
        if (!v.isBoolean()) {
          throw new BadInputException("'" + what + "' must be true or false");
        }
        return Boolean.toString(v.asBoolean());
      }
      default -> {
        try {
          return Long.toString(WeiboTime.parse(v.asText()));
        } catch (DateTimeParseException e) {
          throw new BadInputException(
              "'" + what + "' must look like 'Tue May 31 17:46:55 +0800 2011', got " + v);
        }
      }
    }
  }

  private static String where(JsonParser p) {
    return "line "
        + p.currentLocation().getLineNr()
        + ", column "
        + p.currentLocation().getColumnNr();
  }

  private static String where(JsonParseException e) {
    return e.getLocation() == null
        ? "?"
        : "line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr();
  }
}
