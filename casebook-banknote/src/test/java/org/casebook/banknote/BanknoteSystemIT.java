package org.casebook.banknote;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import org.casebook.banknote.wire.BanknoteRoutes.BatchRequest;
import org.casebook.core.AccessRule;
import org.casebook.core.HBaseRuntime;
import org.casebook.core.Json;
import org.casebook.core.page.PageRequest;
import org.casebook.core.settings.Setting;
import org.casebook.core.testing.EmbeddedHBase;
import org.casebook.core.testing.ServedSystem;
import org.casebook.core.testing.TestIds;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The system's settings: the bank's zone and the tables' namespace, as the server sets them. */
@ExtendWith(EmbeddedHBase.class)
class BanknoteSystemIT {
  private final HttpClient client = HttpClient.newHttpClient();

  @Test
  void theSettingsAreDeclaredUnderTheirDocumentedNames() {
    Map<String, Setting<?>> byName = new java.util.HashMap<>();
    new BanknoteSystem().descriptor().settings().forEach(s -> byName.put(s.name(), s));
    assertThat(byName)
        .containsOnlyKeys(
            "zone", "namespace", "retention-years", "clone-max-speed-kmh", "clone-min-distance-km");
    assertThat(byName.get("clone-max-speed-kmh").environmentVariable("banknote"))
        .isEqualTo("CASEBOOK_BANKNOTE_CLONE_MAX_SPEED_KMH");
    assertThat(byName.get("clone-max-speed-kmh").defaultValue()).isEqualTo(900);
    assertThat(byName.get("clone-min-distance-km").defaultValue()).isEqualTo(50);
    assertThat(byName.get("zone").environmentVariable("banknote"))
        .isEqualTo("CASEBOOK_BANKNOTE_ZONE");
    assertThat(byName.get("zone").defaultValue()).isEqualTo(ZoneId.of("Asia/Shanghai"));
    assertThat(byName.get("namespace").defaultValue()).isEqualTo("banknote");
    assertThat(BanknoteSettings.NAMESPACE.parser().apply(" bench_1 ")).isEqualTo("bench_1");
    assertThatThrownBy(() -> BanknoteSettings.NAMESPACE.parser().apply("bank:notes"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("HBase namespace");
  }

  @Test
  void anotherNamespaceGetsItsOwnTablesAndTheZoneDecidesTheDay(HBaseRuntime runtime)
      throws Exception {
    String run = TestIds.unique("z").replace('-', '_');
    String namespace = "banknote_" + run;
    // 20:00 UTC is the next morning in Shanghai: the zone decides which day lists the suspect.
    Instant time = Instant.parse("2031-09-01T20:00:00Z");
    Note suspect =
        new Note(
            "ZZ12345678",
            100,
            "CNY",
            2015,
            "ATM/" + run,
            DeviceKind.ATM,
            "br-" + run,
            Operation.DEPOSIT,
            time,
            "T-" + run,
            Verdict.SUSPECT,
            List.of(1, 0, 0),
            run + ".fsn",
            0,
            null);
    try (ServedSystem served =
        ServedSystem.start(
            runtime,
            new BanknoteSystem(),
            AccessRule.open(),
            Map.of(
                "banknote.namespace",
                namespace,
                "banknote.zone",
                "UTC",
                "banknote.clone-max-speed-kmh",
                "3000",
                "banknote.clone-min-distance-km",
                "5"))) {
      String body = Json.write(new BatchRequest(List.of(NoteJson.of(suspect))));
      HttpResponse<String> posted =
          client.send(
              HttpRequest.newBuilder(URI.create(served.url("/api/banknotes/batches")))
                  .header("Content-Type", "application/json")
                  .POST(HttpRequest.BodyPublishers.ofString(body))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(posted.statusCode()).as(posted.body()).isEqualTo(200);

      BanknoteService onSettings = new BanknoteService(served.context());
      assertThat(onSettings.zone()).isEqualTo(ZoneId.of("UTC"));
      // The travel check's settings, and the namespace's own branches table it reads.
      assertThat(onSettings.clones("ZZ12345678").maxSpeedKmh()).isEqualTo(3000);
      assertThat(onSettings.clones("ZZ12345678").minDistanceKm()).isEqualTo(5);
      assertThat(
              onSettings
                  .suspects("br-" + run, LocalDate.of(2031, 9, 1), PageRequest.first(10))
                  .items())
          .containsExactly(suspect);
      assertThat(
              onSettings
                  .suspects("br-" + run, LocalDate.of(2031, 9, 2), PageRequest.first(10))
                  .items())
          .isEmpty();
      assertThat(
              new BanknoteService(served.context(), namespace, ZoneId.of("UTC"))
                  .history("ZZ12345678", PageRequest.first(10), false)
                  .items())
          .containsExactly(suspect);
      // The default namespace's tables, as the platform makes them (whichever test runs first).
      new org.casebook.core.schema.SchemaManager(runtime.connection())
          .ensureAll(new BanknoteSystem().descriptor().tables());
      assertThat(
              new BanknoteService(
                      served.context(), BanknoteService.DEFAULT_NAMESPACE, ZoneId.of("UTC"))
                  .batch("T-" + run, PageRequest.first(10))
                  .items())
          .as("the default namespace's tables hold none of it")
          .isEmpty();
    }
  }
}
