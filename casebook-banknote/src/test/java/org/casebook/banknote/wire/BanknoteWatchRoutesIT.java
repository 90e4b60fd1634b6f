package org.casebook.banknote.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.casebook.banknote.wire.RestCalls.assertField;
import static org.casebook.banknote.wire.RestCalls.json;
import static org.casebook.banknote.wire.RestCalls.send;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.List;
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

@ExtendWith(EmbeddedHBase.class)
class BanknoteWatchRoutesIT {
  private static final String TOKEN = "s3cret";
  private ServedSystem served;
  private String base;
  private String run;

  @BeforeEach
  void start(HBaseRuntime runtime) {
    served = ServedSystem.start(runtime, new BanknoteSystem(), AccessRule.token(TOKEN));
    base = served.url("/api/banknotes/");
    run = TestIds.unique("w");
  }

  @AfterEach
  void stop() {
    served.close();
  }

  @Test
  void theWatchListIsManagedOverRestAndABatchMatchingItIsListedAsAHit() throws Exception {
    // A serial of this run only: the default namespace's list is shared with other tests.
    String serial = "QW" + String.format("%08d", Math.floorMod(run.hashCode(), 100_000_000));
    String pattern = serial.substring(0, 4) + "??" + serial.substring(6);
    HttpResponse<String> added =
        send(
            "POST",
            base + "watch",
            "{\"pattern\":\"" + pattern + "\",\"note\":\"PBOC notice\",\"addedBy\":\"ops\"}",
            TOKEN);
    assertThat(added.statusCode()).as(added.body()).isEqualTo(201);
    String id = json(added).get("id").asText();
    assertThat(json(added).get("pattern").asText()).isEqualTo(pattern);

    JsonNode list = json(send("GET", base + "watch?limit=1000", null, null));
    assertThat(list.get("entries").findValuesAsText("id")).contains(id);

    Note n =
        new Note(
            serial,
            100,
            "CNY",
            2019,
            "ATM/" + run,
            DeviceKind.ATM,
            "br-" + run,
            Operation.WITHDRAWAL,
            Instant.parse("2031-08-01T03:00:00Z"),
            "T-" + run,
            Verdict.GENUINE,
            List.of(0, 0, 0),
            run + ".fsn",
            3,
            null);
    String body = Json.write(new BanknoteRoutes.BatchRequest(List.of(NoteJson.of(n))));
    assertThat(send("POST", base + "batches", body, TOKEN).statusCode()).isEqualTo(200);
    JsonNode hits =
        json(send("GET", base + "watch/hits?branch=br-" + run + "&day=2031-08-01", null, null));
    assertThat(hits.get("hits")).hasSize(1);
    assertThat(hits.get("hits").get(0).get("entry").asText()).isEqualTo(id);
    assertThat(hits.get("hits").get(0).get("note").get("serial").asText()).isEqualTo(serial);
    assertThat(hits.get("hits").get(0).get("note").get("batch").asText()).isEqualTo("T-" + run);

    assertThat(send("DELETE", base + "watch/" + id, null, null).statusCode())
        .as("changes need the token")
        .isEqualTo(401);
    assertThat(send("DELETE", base + "watch/" + id, null, TOKEN).statusCode()).isEqualTo(204);
    assertThat(send("DELETE", base + "watch/" + id, null, TOKEN).statusCode()).isEqualTo(404);
  }

  @Test
  void badInputIsA400NamingTheField() throws Exception {
    assertBad("{\"pattern\":\"AB1?\",\"note\":\"n\",\"addedBy\":\"ops\"}", "pattern");
    assertBad("{\"pattern\":\"AB??????????\",\"note\":\"n\",\"addedBy\":\"ops\"}", "pattern");
    assertBad("{\"note\":\"n\",\"addedBy\":\"ops\"}", "pattern");
    assertBad(
        "{\"pattern\":\"AB12??????\",\"denomination\":-5,\"note\":\"n\",\"addedBy\":\"ops\"}",
        "denomination");
    assertBad("{\"pattern\":\"AB12??????\",\"addedBy\":\"ops\"}", "note");
    assertBad("{\"pattern\":\"AB12??????\",\"note\":\"n\"}", "addedBy");
    assertField(send("GET", base + "watch/hits?branch=b1&day=2031-13-01", null, null), "day");
    assertField(send("GET", base + "watch/hits?day=2031-01-01", null, null), "branch");
    assertField(send("GET", base + "watch?limit=0", null, null), "limit");
    assertField(send("GET", base + "watch?cursor=nonsense", null, null), "cursor");
    assertField(send("GET", base + "clones/AB1", null, null), "serial");
    assertThat(json(send("GET", base + "clones/ab12345678", null, null)).get("clones")).isEmpty();
  }

  private void assertBad(String body, String field) throws Exception {
    assertField(send("POST", base + "watch", body, TOKEN), field);
  }
}
