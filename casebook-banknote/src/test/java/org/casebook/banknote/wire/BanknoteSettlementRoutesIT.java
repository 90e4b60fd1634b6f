package org.casebook.banknote.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.casebook.banknote.wire.RestCalls.assertField;
import static org.casebook.banknote.wire.RestCalls.json;
import static org.casebook.banknote.wire.RestCalls.send;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.casebook.banknote.BanknoteSystem;
import org.casebook.banknote.DeviceKind;
import org.casebook.banknote.Note;
import org.casebook.banknote.NoteJson;
import org.casebook.banknote.Operation;
import org.casebook.banknote.SettlementCsv;
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
 * The settlement's routes as the server serves them: the day's JSON and CSV, the delivered
 * declaration (a write: it needs the token) closing the day, and bad input as a 400 naming the
 * field.
 */
@ExtendWith(EmbeddedHBase.class)
class BanknoteSettlementRoutesIT {
  private static final String TOKEN = "s3cret";
  private ServedSystem served;
  private String base;
  private String run;
  private String branch;

  @BeforeEach
  void start(HBaseRuntime runtime) {
    served = ServedSystem.start(runtime, new BanknoteSystem(), AccessRule.token(TOKEN));
    base = served.url("/api/banknotes/");
    run = TestIds.unique("sr");
    branch = "br," + run; // a comma: the CSV quotes it
  }

  @AfterEach
  void stop() {
    served.close();
  }

  private Note note(String device, DeviceKind kind, Operation op, int i, int denomination) {
    return new Note(
        String.format("QR%08d", Math.floorMod(run.hashCode(), 1000) * 10_000 + i),
        denomination,
        "CNY",
        2019,
        device,
        kind,
        branch,
        op,
        Instant.parse("2031-08-01T02:00:00Z").plusSeconds(600L * i), // 10:00 in Shanghai
        "T-" + run,
        i % 4 == 3 ? Verdict.SUSPECT : Verdict.GENUINE,
        List.of(0, 0, 0),
        device.startsWith("ATM") ? "atm-" + run + ".jsonl" : "s-" + run + ".jsonl",
        i,
        null);
  }

  private static String enc(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8);
  }

  @Test
  void aDaysSettlementAsJsonAndCsvAndItsDeclarations() throws Exception {
    String atm = "ATM/" + run;
    String sorter = "SORTER/" + run;
    List<NoteJson> notes = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      notes.add(NoteJson.of(note(atm, DeviceKind.ATM, Operation.WITHDRAWAL, i, 100)));
    }
    for (int i = 8; i < 14; i++) {
      notes.add(
          NoteJson.of(note(sorter, DeviceKind.SORTER, Operation.SORTING, i, i % 2 == 0 ? 50 : 20)));
    }
    HttpResponse<String> stored =
        send("POST", base + "batches", Json.write(new BanknoteRoutes.BatchRequest(notes)), TOKEN);
    assertThat(stored.statusCode()).as(stored.body()).isEqualTo(200);

    String query = "settlement?branch=" + enc(branch) + "&day=2031-08-01";
    JsonNode s = json(send("GET", base + query, null, null));
    assertThat(s.get("branch").asText()).isEqualTo(branch);
    assertThat(s.get("day").asText()).isEqualTo("2031-08-01");
    assertThat(s.get("zone").asText()).isEqualTo("Asia/Shanghai");
    assertThat(s.get("status").asText()).isEqualTo("open");
    assertThat(s.get("totals").get("total").asLong()).isEqualTo(14);
    assertThat(s.get("totals").get("withdrawal").asLong()).isEqualTo(8);
    assertThat(s.get("totals").get("sorting").asLong()).isEqualTo(6);
    assertThat(s.get("totals").get("suspects").asLong()).isEqualTo(3); // i = 3, 7, 11
    assertThat(s.get("lines")).hasSize(3); // ATM 100; sorter 20 and 50
    JsonNode atmLine = s.get("lines").get(0);
    assertThat(atmLine.get("device").asText()).isEqualTo(atm);
    assertThat(atmLine.get("deviceKind").asText()).isEqualTo("atm");
    assertThat(atmLine.get("denomination").asInt()).isEqualTo(100);
    assertThat(atmLine.get("withdrawal").asLong()).isEqualTo(8);
    assertThat(atmLine.get("files").get(0).get("source").asText())
        .isEqualTo("atm-" + run + ".jsonl");
    assertThat(atmLine.get("files").get(0).get("notes").asLong()).isEqualTo(8);
    assertThat(s.get("hours")).hasSize(24);
    assertThat(s.get("hours").get(10).get("notes").asLong()).isEqualTo(6); // 10:00 … 10:50
    assertThat(s.get("devices").findValuesAsText("device")).containsExactly(atm, sorter);
    assertThat(s.get("devices").get(0).get("declared").isNull()).isTrue();
    assertThat(s.get("lateFiles")).isEmpty();

    HttpResponse<String> csv = send("GET", base + query + "&format=csv", null, null);
    assertThat(csv.statusCode()).isEqualTo(200);
    assertThat(csv.headers().firstValue("Content-Type").orElse("")).startsWith("text/csv");
    assertThat(csv.headers().firstValue("Content-Disposition").orElse(""))
        .startsWith("attachment; filename=\"settlement-")
        .endsWith("-2031-08-01.csv\"");
    String[] lines = csv.body().split("\r\n");
    assertThat(lines).hasSize(4);
    assertThat(lines[0]).isEqualTo(String.join(",", SettlementCsv.HEADER));
    assertThat(lines[1])
        .isEqualTo(
            "\""
                + branch
                + "\",2031-08-01,open,"
                + atm
                + ",atm,CNY,100,0,8,0,0,2,8,atm-"
                + run
                + ".jsonl=8");
    assertThat(lines[2])
        .startsWith("\"" + branch + "\",2031-08-01,open," + sorter + ",sorter,CNY,20,0,0,3,0,");
    assertThat(lines[3]).contains(",sorter,CNY,50,0,0,3,0,").endsWith(",3,s-" + run + ".jsonl=3");

    // Declarations are writes: the token is needed.
    String delivered = base + "settlement/" + enc(branch) + "/2031-08-01/devices/";
    assertThat(send("POST", delivered + enc(atm) + "/delivered", null, null).statusCode())
        .isEqualTo(401);
    JsonNode d = json(send("POST", delivered + enc(atm) + "/delivered", null, TOKEN));
    assertThat(d.get("device").asText()).isEqualTo(atm);
    assertThat(d.get("recorded").asBoolean()).isTrue();
    assertThat(d.get("status").asText()).isEqualTo("open");
    JsonNode again = json(send("POST", delivered + enc(atm) + "/delivered", null, TOKEN));
    assertThat(again.get("recorded").asBoolean()).isFalse();
    assertThat(again.get("declared").asText()).isEqualTo(d.get("declared").asText());
    JsonNode closed = json(send("POST", delivered + enc(sorter) + "/delivered", null, TOKEN));
    assertThat(closed.get("status").asText()).isEqualTo("closed");
    JsonNode after = json(send("GET", base + query, null, null));
    assertThat(after.get("status").asText()).isEqualTo("closed");
    assertThat(after.get("closedAt").asText()).isEqualTo(closed.get("declared").asText());
    assertThat(send("GET", base + query + "&format=csv", null, null).body())
        .contains(",2031-08-01,closed,");
  }

  @Test
  void badInputIsA400NamingTheField() throws Exception {
    assertField(send("GET", base + "settlement?day=2031-08-01", null, null), "branch");
    assertField(send("GET", base + "settlement?branch=&day=2031-08-01", null, null), "branch");
    assertField(
        send("GET", base + "settlement?branch=" + "b".repeat(65) + "&day=2031-08-01", null, null),
        "branch");
    assertField(send("GET", base + "settlement?branch=b1", null, null), "day");
    assertField(send("GET", base + "settlement?branch=b1&day=2031-02-30", null, null), "day");
    assertField(send("GET", base + "settlement?branch=b1&day=yesterday", null, null), "day");
    assertField(
        send("GET", base + "settlement?branch=b1&day=2031-08-01&format=xml", null, null), "format");
    String delivered = base + "settlement/b1/2031-08-01/devices/";
    assertField(send("POST", delivered + "d".repeat(65) + "/delivered", null, TOKEN), "device");
    assertField(
        send("POST", base + "settlement/b1/2031-13-01/devices/d1/delivered", null, TOKEN), "day");
    assertField(
        send("POST", base + "settlement/%01/2031-08-01/devices/d1/delivered", null, TOKEN),
        "branch");
  }
}
