package org.casebook.trails.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.casebook.core.Json;
import org.casebook.trails.Behaviour;
import org.casebook.trails.Behaviours;
import org.casebook.trails.Event;
import org.junit.jupiter.api.Test;

/** The log format: lines, events written as log lines and read back, the byte-level rules. */
class LogParserTest {
  private static final long TS = 1_789_058_183_302L;

  @Test
  void eventsWrittenInTheLogLinesShapeParseBackAsTheSameEvents() throws Exception {
    List<Event> events =
        List.of(
            new Event(
                "a/b,1",
                Behaviour.PLAY,
                TS,
                Map.of("contentId", "c9", "channel", "movies", "start", "0", "duration", "1800")),
            new Event("a/b,1", Behaviour.ORDER, TS + 1, Map.of("product", "p1", "price", "12.50")));
    String json = Json.mapper().writeValueAsString(EventView.of(events));
    assertThat(json).contains("\"duration\":1800").contains("\"price\":12.50");
    List<LogParser.Parsed> parsed = LogParser.parseAll(json, Behaviours.BUILT_INS);
    assertThat(parsed).extracting(p -> p.event().orElseThrow()).isEqualTo(events);
  }

  @Test
  void aLineIsCleanedUnderTheSharedByteRules() {
    byte[] good =
        ("{\"uid\":\"u\",\"type\":\"visit\",\"ts\":" + TS + ",\"page\":\"p\",\"column\":\"c\"}\r")
            .getBytes(StandardCharsets.UTF_8);
    int length = LogLines.lengthWithoutCarriageReturn(good, good.length);
    assertThat(length).isEqualTo(good.length - 1);
    assertThat(LogLines.clean(good, length, Behaviours.BUILT_INS).event())
        .isEqualTo(new Event("u", Behaviour.VISIT, TS, Map.of("page", "p", "column", "c")));
    byte[] bad = {'{', (byte) 0xC3, (byte) 0x28, '}'};
    assertThat(LogLines.clean(bad, bad.length, Behaviours.BUILT_INS).category())
        .isEqualTo("invalid UTF-8");
    byte[] tooLong = new byte[LogLines.MAX_LINE_BYTES + 1];
    assertThat(LogLines.clean(tooLong, tooLong.length, Behaviours.BUILT_INS).category())
        .isEqualTo(LogLines.TOO_LONG);
    assertThat(
            LogLines.startsWithByteOrderMark(new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF}, 3))
        .isTrue();
  }

  /**
   * The digit-by-digit read agrees with {@code Instant.parse} everywhere, and refuses what it does.
   */
  @Test
  void timestampsReadAsInstantParseReadsThem() {
    java.util.SplittableRandom random = new java.util.SplittableRandom(7);
    for (int i = 0; i < 20_000; i++) {
      java.time.Instant t =
          java.time.Instant.ofEpochMilli(random.nextLong(0, 253_402_300_800_000L));
      String whole = java.time.format.DateTimeFormatter.ISO_INSTANT.format(t);
      assertThat(LogParser.isoMillis(whole))
          .as(whole)
          .isEqualTo(java.time.Instant.parse(whole).toEpochMilli());
    }
    for (String s :
        List.of(
            "2024-02-29T23:59:59Z",
            "2026-09-01T20:15:03.007Z",
            "1970-01-01T00:00:00Z",
            "2026-09-01t20:15:03z",
            "2026-09-01T20:15:03.5Z",
            "2026-09-01T20:15:03.123456Z",
            "2026-09-01T20:15:03+02:00",
            "2026-09-01T24:00:00Z",
            "2026-12-31T23:59:60Z",
            "2026-02-29T10:00:00Z",
            "2026-13-01T10:00:00Z",
            "2026-09-31T10:00:00Z",
            "2026-09-01T20:60:00Z",
            "2026-09-01T20:15:03.12xZ",
            "2026-09-01T20:15:03",
            "2026-0a-01T10:00:00Z")) {
      assertThat(outcome(() -> LogParser.isoMillis(s)))
          .as(s)
          .isEqualTo(outcome(() -> java.time.Instant.parse(s).toEpochMilli()));
    }
  }

  /** The value, or the class of what was thrown. */
  private static Object outcome(java.util.function.LongSupplier read) {
    try {
      return read.getAsLong();
    } catch (RuntimeException e) {
      return e.getClass();
    }
  }
}
