package org.casebook.trails;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.casebook.core.InvalidInputException;
import org.casebook.trails.wire.LogParser;
import org.junit.jupiter.api.Test;

/** {@link Behaviours}: lookups, the text a job carries, and a declared type in a log line. */
class BehavioursTest {
  private static final Behaviour WATCH =
      Behaviour.declared(
          7,
          "watch",
          List.of(
              new Behaviour.Field("contentId", Behaviour.Kind.TEXT),
              new Behaviour.Field("seconds", Behaviour.Kind.COUNT),
              new Behaviour.Field("fee", Behaviour.Kind.MONEY)));
  private static final Behaviours KNOWN =
      Behaviours.withDeclared(
          List.of(
              WATCH,
              Behaviour.declared(
                  5, "share", List.of(new Behaviour.Field("to", Behaviour.Kind.TEXT)))));

  @Test
  void builtInsKeepTheirIdsAndDeclaredOnesSortAfterThem() {
    assertThat(Behaviours.BUILT_INS.all()).extracting(Behaviour::id).containsExactly(1, 2, 3, 4);
    assertThat(KNOWN.all())
        .extracting(Behaviour::label)
        .containsExactly("login", "play", "visit", "order", "share", "watch");
    assertThat(KNOWN.byId(7)).contains(WATCH);
    assertThat(KNOWN.byId(6)).isEmpty();
    assertThat(KNOWN.byLabel("watch")).contains(WATCH);
    assertThat(KNOWN.parse(" WATCH ", "types")).isEqualTo(WATCH);
    assertThatThrownBy(() -> KNOWN.parse("shop", "types"))
        .isInstanceOfSatisfying(
            InvalidInputException.class, e -> assertThat(e.field()).isEqualTo("types"))
        .hasMessageContaining("watch");
    assertThat(KNOWN.declared()).extracting(Behaviour::id).containsExactly(5, 7);
  }

  @Test
  void theJobsTextRoundTrips() {
    Behaviours back = Behaviours.decode(KNOWN.encode());
    assertThat(back.all()).isEqualTo(KNOWN.all());
    assertThat(back.byId(7).orElseThrow().fields()).isEqualTo(WATCH.fields());
    assertThat(Behaviours.decode(Behaviours.BUILT_INS.encode()).all())
        .isEqualTo(Behaviour.BUILT_INS);
    assertThat(Behaviours.decode(null)).isSameAs(Behaviours.BUILT_INS);
  }

  @Test
  void aDeclaredTypesLineKeepsItsFieldsAndExtras() {
    String line =
        "{\"uid\":\"u\",\"type\":\"watch\",\"ts\":0,\"seconds\":12,\"fee\":\"1.5\","
            + "\"tag\":true,\"n\":3,\"o\":{\"a\":1},\"extra\":{\"via\":\"tv\"}}";
    Event e = LogParser.parse(line, KNOWN).event().orElseThrow();
    assertThat(e.type()).isEqualTo(WATCH);
    assertThat(e.fields()).isEqualTo(Map.of("seconds", "12", "fee", "1.50"));
    assertThat(e.extras())
        .isEqualTo(Map.of("tag", "true", "n", "3", "o", "{\"a\":1}", "via", "tv"));
    // Built-ins alone do not know it.
    assertThat(LogParser.parse(line, Behaviours.BUILT_INS).category()).isEqualTo("unknown type");
    // The hash of a record without extras is what it was before extras existed.
    Event plain = new Event("u", Behaviour.ORDER, 0, Map.of("product", "p", "price", "1.00"));
    Event withExtra =
        new Event("u", Behaviour.ORDER, 0, plain.fields(), Map.of("campaign", "autumn"));
    assertThat(TrailsKeys.recordHash(withExtra)).isNotEqualTo(TrailsKeys.recordHash(plain));
  }
}
