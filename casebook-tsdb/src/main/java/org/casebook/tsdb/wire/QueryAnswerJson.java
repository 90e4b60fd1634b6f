package org.casebook.tsdb.wire;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.casebook.core.Json;
import org.casebook.tsdb.AnnotatedAnswer;
import org.casebook.tsdb.Annotation;
import org.casebook.tsdb.QueryResult;
import org.casebook.tsdb.ResultPoints;

/**
 * Writes a {@code /api/query} answer as OpenTSDB 2.4.1 writes it (see {@link QueryJson#render}).
 * Each group's fields go through Jackson's writer; its points, most of a large answer, are written
 * straight into the answer's bytes ({@link JsonNumberText}).
 *
 * @param msResolution timestamps in milliseconds rather than seconds
 * @param arrays points as {@code [time, value]} arrays rather than an object
 * @param echoes per sub-query, what {@code showQuery} echoes (none without it)
 */
record QueryAnswerJson(boolean msResolution, boolean arrays, List<JsonNode> echoes) {
  /** About what a point of {@code dps} takes as text: a ten-digit name and a double. */
  private static final int BYTES_PER_POINT = 32;

  /** Points an answer has per processor before its groups are written side by side. */
  private static final long PARALLEL_POINTS = 16_384;

  private static final SerializedString GROUP_SEPARATOR = new SerializedString(",");

  QueryAnswerJson {
    echoes = List.copyOf(echoes);
  }

  byte[] render(AnnotatedAnswer answer, boolean showQuery) {
    List<Group> groups = new ArrayList<>();
    long points = 0;
    for (int i = 0; i < answer.results().size(); i++) {
      List<QueryResult> results = answer.results().get(i);
      for (int j = 0; j < results.size(); j++) {
        groups.add(new Group(i, results.get(j), answer.notes().get(i).get(j)));
        points += results.get(j).points().size();
      }
    }
    List<List<Group>> slices = slices(groups, points);
    // One group has no names to share.
    boolean shareNames = groups.size() > 1;
    List<byte[]> parts =
        slices.size() == 1
            ? List.of(renderGroups(slices.get(0), answer.globals(), shareNames, showQuery))
            : slices.parallelStream()
                .map(slice -> renderGroups(slice, answer.globals(), shareNames, showQuery))
                .toList();
    int size = parts.size() + 1;
    for (byte[] part : parts) {
      size += part.length;
    }
    byte[] out = new byte[size];
    out[0] = '[';
    int at = 1;
    for (byte[] part : parts) {
      if (at > 1 && part.length > 0) {
        out[at++] = ',';
      }
      System.arraycopy(part, 0, out, at, part.length);
      at += part.length;
    }
    out[at++] = ']';
    return at == size ? out : Arrays.copyOf(out, at);
  }

  /** A group of the answer: its sub-query's position, its result and its series' notes. */
  private record Group(int query, QueryResult result, List<Annotation> notes) {}

  /**
   * The groups cut into runs of about equal points, one per processor, when the answer is large:
   * writing a month of hourly values is most of such a query's time, and the runs are written side
   * by side. A small answer is one run.
   */
  private static List<List<Group>> slices(List<Group> groups, long points) {
    int processors = Runtime.getRuntime().availableProcessors();
    int count = (int) Math.min(Math.min(processors, groups.size()), points / PARALLEL_POINTS);
    if (count <= 1) {
      return List.of(groups);
    }
    List<List<Group>> slices = new ArrayList<>(count);
    long perSlice = (points + count - 1) / count;
    int from = 0;
    long taken = 0;
    for (int k = 0; k < groups.size(); k++) {
      taken += groups.get(k).result().points().size();
      if (taken >= perSlice * (slices.size() + 1) || k == groups.size() - 1) {
        slices.add(groups.subList(from, k + 1));
        from = k + 1;
      }
    }
    return slices;
  }

  /**
   * Groups written one after another, separated by commas, without the enclosing brackets; {@code
   * shareNames}: the groups' timestamp names are written once and reused.
   */
  private byte[] renderGroups(
      List<Group> groups, List<Annotation> globals, boolean shareNames, boolean showQuery) {
    long points = 0;
    for (Group group : groups) {
      points += group.result().points().size();
    }
    // Sized for the points up front: growing a buffer of megabytes copies it again and again.
    AnswerBytes out = new AnswerBytes((int) Math.min(4096 + points * BYTES_PER_POINT, 1 << 26));
    TimestampNames names = shareNames ? new TimestampNames() : null;
    try (JsonGenerator g = Json.mapper().getFactory().createGenerator(out)) {
      g.setRootValueSeparator(GROUP_SEPARATOR);
      g.enable(StreamWriteFeature.USE_FAST_DOUBLE_WRITER.mappedFeature());
      for (Group group : groups) {
        QueryResult r = group.result();
        g.writeStartObject();
        g.writeStringField("metric", r.metric());
        g.writeObjectFieldStart("tags");
        for (Map.Entry<String, String> t : r.tags().entrySet()) {
          g.writeStringField(t.getKey(), t.getValue());
        }
        g.writeEndObject();
        g.writeArrayFieldStart("aggregateTags");
        for (String t : r.aggregateTags()) {
          g.writeString(t);
        }
        g.writeEndArray();
        if (showQuery) {
          g.writeFieldName("query");
          writeEcho(g, group.query());
        }
        writeNotes(g, "annotations", group.notes());
        writeNotes(g, "globalAnnotations", globals);
        g.writeFieldName("dps");
        // The generator writes the field's colon for a value of no text; the points follow in
        // the same bytes once it has flushed.
        g.writeRawValue("");
        g.flush();
        if (arrays) {
          writeArrays(out, ResultPoints.of(r.points()));
        } else {
          writeObject(out, ResultPoints.of(r.points()), names);
        }
        g.writeEndObject();
      }
    } catch (IOException e) {
      throw new UncheckedIOException("writing JSON to memory", e);
    }
    return out.toByteArray();
  }

  /** {@code dps} as an object; {@code names} null: each name written as it comes (one group). */
  private void writeObject(AnswerBytes out, ResultPoints points, TimestampNames names) {
    out.write('{');
    if (names != null) {
      names.restart();
    }
    for (int i = 0; i < points.size(); i++) {
      long t = msResolution ? points.timestampMs(i) : points.timestampMs(i) / 1000;
      byte[] buffer = out.room(2 * JsonNumberText.MAX_BYTES + 2);
      int at = out.size();
      if (i > 0) {
        buffer[at++] = ',';
      }
      if (names == null) {
        at = writeName(t, buffer, at);
      } else {
        byte[] name = names.of(t);
        System.arraycopy(name, 0, buffer, at, name.length);
        at += name.length;
      }
      out.moveTo(writeValue(points, i, buffer, at));
    }
    out.write('}');
  }

  /** {@code dps} as {@code [[time, value], …]}. */
  private void writeArrays(AnswerBytes out, ResultPoints points) {
    out.write('[');
    for (int i = 0; i < points.size(); i++) {
      byte[] buffer = out.room(2 * JsonNumberText.MAX_BYTES + 4);
      int at = out.size();
      if (i > 0) {
        buffer[at++] = ',';
      }
      buffer[at++] = '[';
      long t = msResolution ? points.timestampMs(i) : points.timestampMs(i) / 1000;
      at = JsonNumberText.writeLong(t, buffer, at);
      buffer[at++] = ',';
      at = writeValue(points, i, buffer, at);
      buffer[at++] = ']';
      out.moveTo(at);
    }
    out.write(']');
  }

  /** A point's name with its quotes and colon, as {@code "1700000000":}. */
  private static int writeName(long timestamp, byte[] buffer, int at) {
    buffer[at] = '"';
    int end = JsonNumberText.writeLong(timestamp, buffer, at + 1);
    buffer[end] = '"';
    buffer[end + 1] = ':';
    return end + 2;
  }

  private static int writeValue(ResultPoints points, int i, byte[] buffer, int at) {
    return switch (points.kind(i)) {
      case INTEGER -> JsonNumberText.writeLong(points.longValue(i), buffer, at);
      case NULL -> {
        buffer[at] = 'n';
        buffer[at + 1] = 'u';
        buffer[at + 2] = 'l';
        buffer[at + 3] = 'l';
        yield at + 4;
      }
      case DOUBLE -> JsonNumberText.writeDouble(points.doubleValue(i), buffer, at);
    };
  }

  /**
   * The {@code dps} names of one answer, each written once: the groups of an answer mostly share
   * their timestamps, in the same ascending order. Names are kept in that order as they are first
   * met; each group walks them from the start.
   */
  private static final class TimestampNames {
    private static final int MAX_KEPT = 100_000;
    private long[] times = new long[64];
    private byte[][] names = new byte[64][];
    private int kept;
    private int cursor;

    void restart() {
      cursor = 0;
    }

    byte[] of(long timestamp) {
      while (cursor < kept && times[cursor] < timestamp) {
        cursor++;
      }
      if (cursor < kept && times[cursor] == timestamp) {
        return names[cursor++];
      }
      byte[] name = ("\"" + timestamp + "\":").getBytes(StandardCharsets.US_ASCII);
      if (cursor == kept && kept < MAX_KEPT) {
        if (kept == times.length) {
          times = Arrays.copyOf(times, kept * 2);
          names = Arrays.copyOf(names, kept * 2);
        }
        times[kept] = timestamp;
        names[kept++] = name;
        cursor = kept;
      }
      return name;
    }
  }

  /** OpenTSDB writes a list of notes only when it has some. */
  private static void writeNotes(JsonGenerator g, String field, List<Annotation> notes)
      throws IOException {
    if (notes.isEmpty()) {
      return;
    }
    g.writeArrayFieldStart(field);
    for (Annotation a : notes) {
      g.writeObject(AnnotationJson.toMap(a));
    }
    g.writeEndArray();
  }

  private void writeEcho(JsonGenerator g, int i) throws IOException {
    JsonNode echo = echoes.get(i);
    if (echo.isObject()) {
      ObjectNode copy = ((ObjectNode) echo).deepCopy();
      copy.put("index", i);
      g.writeTree(copy);
    } else {
      g.writeStartObject();
      g.writeStringField("m", echo.asText());
      g.writeNumberField("index", i);
      g.writeEndObject();
    }
  }

  /** The bytes of an answer part, open to the writers of its points. */
  private static final class AnswerBytes extends OutputStream {
    private byte[] bytes;
    private int size;

    AnswerBytes(int capacity) {
      bytes = new byte[capacity];
    }

    /** The buffer, with room for {@code n} more bytes from {@link #size()}. */
    byte[] room(int n) {
      if (size + n > bytes.length) {
        bytes = Arrays.copyOf(bytes, Math.max(size + n, bytes.length * 2));
      }
      return bytes;
    }

    int size() {
      return size;
    }

    /** The bytes up to {@code end} of the buffer {@link #room} gave are written. */
    void moveTo(int end) {
      size = end;
    }

    @Override
    public void write(int b) {
      room(1)[size++] = (byte) b;
    }

    @Override
    public void write(byte[] b, int off, int len) {
      System.arraycopy(b, off, room(len), size, len);
      size += len;
    }

    byte[] toByteArray() {
      return Arrays.copyOf(bytes, size);
    }
  }
}
