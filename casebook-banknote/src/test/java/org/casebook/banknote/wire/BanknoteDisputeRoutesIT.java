package org.casebook.banknote.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.casebook.banknote.wire.RestCalls.json;
import static org.casebook.banknote.wire.RestCalls.send;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import org.casebook.banknote.BanknoteSystem;
import org.casebook.banknote.DeviceKind;
import org.casebook.banknote.Note;
import org.casebook.banknote.NoteJson;
import org.casebook.banknote.Operation;
import org.casebook.banknote.Verdict;
import org.casebook.core.AccessRule;
import org.casebook.core.HBaseRuntime;
import org.casebook.core.Json;
import org.casebook.core.testing.EmbeddedHBase;
import org.casebook.core.testing.ServedSystem;
import org.casebook.core.testing.TestIds;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A dispute pack over REST: a note paid out earlier, deposited at an ATM, sorted in a sorter's
 * batch (with its serial image), counted into a bundle, paid out by another ATM and brought back to
 * a teller as suspect. The chain is the last stay in the bank's hands, in order, with the cassette
 * link inferred before the payout and the image where the file had one; the return comes after.
 */
@ExtendWith(EmbeddedHBase.class)
class BanknoteDisputeRoutesIT {
  private ServedSystem served;
  private String base;
  private String run;

  @BeforeEach
  void start(HBaseRuntime runtime) {
    served = ServedSystem.start(runtime, new BanknoteSystem(), AccessRule.open());
    base = served.url("/api/banknotes/");
    run = TestIds.unique("dp");
  }

  @AfterEach
  void stop() {
    served.close();
  }

  private Note reading(
      String serial,
      String device,
      DeviceKind kind,
      Operation op,
      String time,
      String batch,
      Verdict verdict,
      byte[] image) {
    return new Note(
        serial,
        100,
        "CNY",
        2019,
        device + "/" + run,
        kind,
        "br-" + run,
        op,
        Instant.parse(time),
        batch + "-" + run,
        verdict,
        List.of(0, 0, 0),
        device + "-" + run + ".fsn",
        7,
        image);
  }

  @Test
  void theChainToThePayoutInOrderWithImagesAndWhatCameAfter() throws Exception {
    String serial =
        String.format(Locale.ROOT, "QD%08d", Math.floorMod(run.hashCode(), 100_000_000));
    byte[] image = new byte[8 + 10 * 128];
    image[0] = 10;
    image[2] = 32;
    image[4] = 32;
    image[8 + 3] = (byte) 0x80; // one ink pixel
    List<Note> notes = new ArrayList<>();
    notes.add(
        reading(
            serial,
            "ATM-0",
            DeviceKind.ATM,
            Operation.WITHDRAWAL,
            "2031-07-01T01:00:00Z",
            "T0",
            Verdict.GENUINE,
            null));
    notes.add(
        reading(
            serial,
            "ATM-1",
            DeviceKind.ATM,
            Operation.DEPOSIT,
            "2031-07-02T01:00:00Z",
            "T1",
            Verdict.GENUINE,
            null));
    notes.add(
        reading(
            serial,
            "SORTER",
            DeviceKind.SORTER,
            Operation.SORTING,
            "2031-07-02T05:00:00Z",
            "B17",
            Verdict.GENUINE,
            image));
    notes.add(
        reading(
            serial,
            "COUNTER",
            DeviceKind.COUNTER,
            Operation.COUNTING,
            "2031-07-02T06:00:00Z",
            "K3",
            Verdict.GENUINE,
            null));
    notes.add(
        reading(
            serial,
            "ATM-2",
            DeviceKind.ATM,
            Operation.WITHDRAWAL,
            "2031-07-03T02:00:00Z",
            "T2",
            Verdict.GENUINE,
            null));
    notes.add(
        reading(
            serial,
            "TELLER",
            DeviceKind.TELLER,
            Operation.COUNTING,
            "2031-07-03T04:00:00Z",
            "C9",
            Verdict.SUSPECT,
            null));
    List<NoteJson> json = notes.stream().map(NoteJson::of).toList();
    HttpResponse<String> stored =
        send("POST", base + "batches", Json.write(new BanknoteRoutes.BatchRequest(json)));
    assertThat(stored.statusCode()).as(stored.body()).isEqualTo(200);

    JsonNode pack = json(send("GET", base + "dispute/" + serial.toLowerCase(Locale.ROOT), null));
    assertThat(pack.get("serial").asText()).isEqualTo(serial);
    assertThat(pack.get("earlier").asInt()).isEqualTo(1);
    assertThat(pack.get("paidOut").get("device").asText()).isEqualTo("ATM-2/" + run);
    JsonNode chain = pack.get("chain");
    assertThat(chain.findValuesAsText("stage"))
        .containsExactly("deposit", "sorting", "bundle", "cassette", "payout");
    assertThat(chain.get(1).get("note").get("batch").asText()).isEqualTo("B17-" + run);
    assertThat(Base64.getDecoder().decode(chain.get(1).get("note").get("image").asText()))
        .isEqualTo(image);
    assertThat(chain.get(0).get("note").has("image")).isFalse();
    JsonNode cassette = chain.get(3);
    assertThat(cassette.get("inferred").asBoolean()).isTrue();
    assertThat(cassette.get("note").isNull()).isTrue();
    assertThat(cassette.get("device").asText()).isEqualTo("ATM-2/" + run);
    assertThat(cassette.get("after").asText()).isEqualTo("2031-07-02T06:00:00Z");
    assertThat(cassette.get("before").asText()).isEqualTo("2031-07-03T02:00:00Z");
    assertThat(pack.get("after")).hasSize(1);
    assertThat(pack.get("after").get(0).get("note").get("verdict").asText()).isEqualTo("suspect");
    assertThat(pack.get("clones")).isEmpty();

    JsonNode unknown = json(send("GET", base + "dispute/QZ00000000", null));
    assertThat(unknown.get("chain")).isEmpty();
    assertThat(unknown.get("paidOut").isNull()).isTrue();
    HttpResponse<String> bad = send("GET", base + "dispute/QD1", null);
    assertThat(bad.statusCode()).isEqualTo(400);
    assertThat(Json.mapper().readTree(bad.body()).get("field").asText()).isEqualTo("serial");
  }
}
