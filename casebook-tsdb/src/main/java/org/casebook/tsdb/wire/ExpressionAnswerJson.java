package org.casebook.tsdb.wire;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import org.casebook.core.Json;
import org.casebook.tsdb.ExpressionAnswer;

/** The answer of {@code /api/query/exp} as OpenTSDB 2.4.1's {@code QueryExecutor} writes it. */
final class ExpressionAnswerJson {
  private ExpressionAnswerJson() {}

  /** The answer as OpenTSDB 2.4.1 writes it: {@code outputs}, then the request {@code echo}. */
  static byte[] render(ExpressionAnswer answer, JsonNode echo) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(4096);
    try (JsonGenerator g = Json.mapper().getFactory().createGenerator(out)) {
      g.writeStartObject();
      g.writeArrayFieldStart("outputs");
      for (ExpressionAnswer.Output o : answer.outputs()) {
        writeOutput(g, o);
      }
      g.writeEndArray();
      g.writeFieldName("query");
      g.writeTree(echo);
      g.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException("writing JSON to memory", e);
    }
    return out.toByteArray();
  }

  private static void writeOutput(JsonGenerator g, ExpressionAnswer.Output o) throws IOException {
    g.writeStartObject();
    g.writeStringField("id", o.id());
    if (o.alias() != null) {
      g.writeStringField("alias", o.alias());
    }
    g.writeArrayFieldStart("dps");
    int series = o.series().size();
    for (int r = 0; r < o.rowCount(); r++) {
      g.writeStartArray();
      g.writeNumber(o.timestampMs(r));
      for (int s = 0; s < series; s++) {
        writeDouble(g, o.value(r, s));
      }
      g.writeEndArray();
    }
    g.writeEndArray();
    g.writeObjectFieldStart("dpsMeta");
    g.writeNumberField("firstTimestamp", o.firstTimestampMs());
    g.writeNumberField("lastTimestamp", o.lastTimestampMs());
    g.writeNumberField("setCount", o.rowCount());
    g.writeNumberField("series", series);
    g.writeEndObject();
    if (series > 0) {
      // OpenTSDB writes meta only for an output with series; entry 0 describes the timestamps.
      g.writeArrayFieldStart("meta");
      g.writeStartObject();
      g.writeNumberField("index", 0);
      g.writeArrayFieldStart("metrics");
      g.writeString("timestamp");
      g.writeEndArray();
      g.writeEndObject();
      for (int s = 0; s < series; s++) {
        ExpressionAnswer.SeriesMeta m = o.series().get(s);
        g.writeStartObject();
        g.writeNumberField("index", s + 1);
        g.writeArrayFieldStart("metrics");
        for (String name : m.metrics()) {
          g.writeString(name);
        }
        g.writeEndArray();
        g.writeObjectFieldStart("commonTags");
        for (Map.Entry<String, String> t : m.commonTags().entrySet()) {
          g.writeStringField(t.getKey(), t.getValue());
        }
        g.writeEndObject();
        g.writeArrayFieldStart("aggregatedTags");
        for (String k : m.aggregatedTags()) {
          g.writeString(k);
        }
        g.writeEndArray();
        g.writeEndObject();
      }
      g.writeEndArray();
    }
    g.writeEndObject();
  }

  /** A value as OpenTSDB's Jackson writes a double: NaN and infinities as strings. */
  private static void writeDouble(JsonGenerator g, double d) throws IOException {
    if (Double.isNaN(d) || Double.isInfinite(d)) {
      g.writeString(Double.toString(d));
    } else {
      g.writeNumber(d);
    }
  }
}
