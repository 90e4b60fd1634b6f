package org.casebook.tsdb.wire;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.casebook.core.Json;
import org.casebook.tsdb.AnnotatedAnswer;
import org.casebook.tsdb.Annotation;
import org.casebook.tsdb.QueryResult;
import org.casebook.tsdb.ResultPoint;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The answer written with its points straight into bytes reads, byte for byte, as Jackson's writer
 * wrote it value by value before: every kind of point, both shapes of {@code dps}, seconds and
 * milliseconds, echoes and notes, one group and many (written side by side when large).
 */
class QueryAnswerJsonTest {
  private static final long HOUR_MS = 3_600_000L;

  @ParameterizedTest
  @CsvSource({
    "false, false, false, 1, 50",
    "false, false, true, 3, 50",
    "true, false, true, 3, 50",
    "false, true, false, 4, 50",
    "true, true, true, 2, 50",
    "false, false, false, 100, 720",
    "true, false, false, 60, 720",
    "false, true, true, 1, 40000"
  })
  void theAnswerReadsAsJacksonWroteIt(
      boolean arrays, boolean msResolution, boolean showQuery, int groups, int pointsPerGroup)
      throws IOException {
    SplittableRandom random = new SplittableRandom(groups * 31L + pointsPerGroup);
    List<QueryResult> results = new ArrayList<>();
    List<List<Annotation>> notes = new ArrayList<>();
    Annotation note =
        new Annotation("000001", 1_700_000_000L, 0, "deploy \"v2\"", "", Map.of("who", "ops"));
    for (int g = 0; g < groups; g++) {
      List<ResultPoint> points = new ArrayList<>();
      long t = 1_700_000_000_000L + g * 500L;
      for (int i = 0; i < pointsPerGroup; i++) {
        // Milliseconds within a second too: names repeat at second resolution, as OpenTSDB's do.
        t += random.nextInt(4) == 0 ? 250 : HOUR_MS;
        points.add(point(random, t));
      }
      results.add(
          new QueryResult(
              "sys.cpu\tuser", Map.of("host", "web-\u00e9" + g), List.of("dc"), points));
      notes.add(g % 2 == 1 ? List.of(note) : List.of());
    }
    List<JsonNode> echoes =
        List.of(
            Json.mapper()
                .readTree("{\"aggregator\":\"sum\",\"metric\":\"sys.cpu\",\"downsample\":\"1h\"}"));
    AnnotatedAnswer answer = new AnnotatedAnswer(List.of(results), List.of(notes), List.of(note));

    byte[] written = new QueryAnswerJson(msResolution, arrays, echoes).render(answer, showQuery);

    assertThat(new String(written, StandardCharsets.UTF_8))
        .isEqualTo(reference(answer, arrays, msResolution, showQuery, echoes));
  }

  private static ResultPoint point(SplittableRandom random, long t) {
    return switch (random.nextInt(8)) {
      case 0 -> new ResultPoint(t, ResultPoint.Kind.INTEGER, random.nextLong(), 0);
      case 1 -> new ResultPoint(t, ResultPoint.Kind.NULL, 0, Double.NaN);
      case 2 -> new ResultPoint(t, ResultPoint.Kind.DOUBLE, 0, Double.NaN);
      case 3 ->
          new ResultPoint(
              t, ResultPoint.Kind.DOUBLE, 0, Double.longBitsToDouble(random.nextLong()));
      case 4 -> new ResultPoint(t, ResultPoint.Kind.DOUBLE, 0, -random.nextInt(1000) / 8.0);
      default -> new ResultPoint(t, ResultPoint.Kind.DOUBLE, 0, random.nextDouble(0, 100));
    };
  }

  /** The answer as the writer wrote it before: every value through Jackson's generator. */
  private static String reference(
      AnnotatedAnswer answer,
      boolean arrays,
      boolean msResolution,
      boolean showQuery,
      List<JsonNode> echoes)
      throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write('[');
    try (JsonGenerator g = Json.mapper().getFactory().createGenerator(out)) {
      g.setRootValueSeparator(new SerializedString(","));
      g.enable(StreamWriteFeature.USE_FAST_DOUBLE_WRITER.mappedFeature());
      for (int q = 0; q < answer.results().size(); q++) {
        for (int i = 0; i < answer.results().get(q).size(); i++) {
          QueryResult r = answer.results().get(q).get(i);
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
            ObjectNode echo = ((ObjectNode) echoes.get(q)).deepCopy();
            echo.put("index", q);
            g.writeFieldName("query");
            g.writeTree(echo);
          }
          notes(g, "annotations", answer.notes().get(q).get(i));
          notes(g, "globalAnnotations", answer.globals());
          g.writeFieldName("dps");
          if (arrays) {
            g.writeStartArray();
          } else {
            g.writeStartObject();
          }
          for (ResultPoint p : r.points()) {
            long t = msResolution ? p.timestampMs() : p.timestampMs() / 1000;
            if (arrays) {
              g.writeStartArray();
              g.writeNumber(t);
            } else {
              g.writeFieldName(Long.toString(t));
            }
            switch (p.kind()) {
              case INTEGER -> g.writeNumber(p.longValue());
              case NULL -> g.writeNull();
              case DOUBLE -> {
                double d = p.doubleValue();
                if (Double.isNaN(d) || Double.isInfinite(d)) {
                  g.writeString(Double.toString(d));
                } else {
                  g.writeNumber(d);
                }
              }
            }
            if (arrays) {
              g.writeEndArray();
            }
          }
          if (arrays) {
            g.writeEndArray();
          } else {
            g.writeEndObject();
          }
          g.writeEndObject();
        }
      }
    }
    out.write(']');
    return out.toString(StandardCharsets.UTF_8);
  }

  private static void notes(JsonGenerator g, String field, List<Annotation> notes)
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
}
