package org.casebook.banknote.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.casebook.banknote.wire.RestCalls.send;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import org.casebook.banknote.BanknoteSystem;
import org.casebook.banknote.DeviceKind;
import org.casebook.banknote.FsnNotes;
import org.casebook.banknote.Note;
import org.casebook.banknote.NoteJson;
import org.casebook.banknote.Operation;
import org.casebook.banknote.Verdict;
import org.casebook.banknote.fsn.FsnFile;
import org.casebook.banknote.fsn.FsnHeader;
import org.casebook.banknote.fsn.FsnRecord;
import org.casebook.banknote.fsn.FsnVariant;
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
class BanknoteRoutesIT {
  private static final String TOKEN = "s3cret";
  private final HttpClient client = HttpClient.newHttpClient();
  private ServedSystem served;
  private String base;
  private String run;

  @BeforeEach
  void start(HBaseRuntime runtime) {
    served = ServedSystem.start(runtime, new BanknoteSystem(), AccessRule.token(TOKEN));
    base = served.url("/api/banknotes/");
    run = TestIds.unique("d");
  }

  @AfterEach
  void stop() {
    served.close();
  }

  private Note note(String serial, int i, Verdict verdict) {
    return new Note(
        serial,
        50,
        "CNY",
        2019,
        "ATM/" + run,
        DeviceKind.ATM,
        "br-" + run,
        Operation.WITHDRAWAL,
        Instant.parse("2031-08-01T03:00:00Z").plusSeconds(i),
        "T-" + run,
        verdict,
        List.of(0, 0, 0),
        run + ".fsn",
        i,
        null);
  }

  private String batchBody(List<Note> notes) {
    List<NoteJson> json = notes.stream().map(NoteJson::of).toList();
    return Json.write(new BanknoteRoutes.BatchRequest(json));
  }

  @Test
  void theCollectorStoresABatchAndEveryListingFindsIt() throws Exception {
    List<Note> notes = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      notes.add(
          note(
              String.format("AB%08d", 10_000_000 + i),
              i,
              i == 7 ? Verdict.SUSPECT : Verdict.GENUINE));
    }
    HttpResponse<String> posted = send("POST", base + "batches", batchBody(notes), TOKEN);
    assertThat(posted.statusCode()).as(posted.body()).isEqualTo(200);
    assertThat(json(posted).get("stored").asInt()).isEqualTo(30);
    assertThat(send("POST", base + "batches", batchBody(notes), null).statusCode())
        .as("writes need the token")
        .isEqualTo(401);

    JsonNode history = json(send("GET", base + "ab10000007", null, null));
    assertThat(history.get("serial").asText()).isEqualTo("AB10000007");
    assertThat(history.get("notes")).hasSize(1);
    JsonNode n = history.get("notes").get(0);
    assertThat(n.get("verdict").asText()).isEqualTo("suspect");
    assertThat(n.get("deviceKind").asText()).isEqualTo("atm");
    assertThat(n.get("time").asText()).isEqualTo("2031-08-01T03:00:07Z");
    assertThat(Json.mapper().treeToValue(n, NoteJson.class).toNote("")).isEqualTo(notes.get(7));
    assertThat(history.get("next").isNull()).isTrue();

    String device = base + "devices/" + enc("ATM/" + run);
    JsonNode window =
        json(
            send(
                "GET",
                device + "?from=2031-08-01T03:00:00Z&to=2031-08-01T03:00:10Z&limit=4",
                null,
                null));
    assertThat(window.get("notes")).hasSize(4);
    assertThat(window.get("from").asText()).isEqualTo("2031-08-01T03:00:00Z");
    JsonNode next =
        json(
            send(
                "GET",
                device
                    + "?from=2031-08-01T03:00:00Z&to=2031-08-01T03:00:10Z&limit=4&cursor="
                    + window.get("next").asText(),
                null,
                null));
    assertThat(next.get("notes").get(0).get("record").asInt()).isEqualTo(4);
    // Dates and local times are in the bank's zone (Asia/Shanghai): the whole Beijing day.
    assertThat(
            json(send("GET", device + "?from=2031-08-01&to=2031-08-02&limit=1000", null, null))
                .get("notes"))
        .hasSize(30);

    JsonNode batch =
        json(send("GET", base + "batches/" + enc("T-" + run) + "?limit=1000", null, null));
    assertThat(batch.get("notes")).hasSize(30);
    JsonNode suspects =
        json(
            send(
                "GET",
                base + "suspects?branch=" + enc("br-" + run) + "&day=2031-08-01",
                null,
                null));
    assertThat(suspects.get("notes")).hasSize(1);
    assertThat(suspects.get("notes").get(0).get("serial").asText()).isEqualTo("AB10000007");
  }

  @Test
  void badInputIs400NamingTheField() throws Exception {
    Note good = note("CD12345678", 0, Verdict.GENUINE);
    String ok = Json.write(NoteJson.of(good));
    assertField(send("POST", base + "batches", "not json", TOKEN), "body");
    assertField(send("POST", base + "batches", "{}", TOKEN), "notes");
    assertField(
        send("POST", base + "batches", "{\"notes\":[" + ok + "],\"extra\":1}", TOKEN), "extra");
    assertField(
        send(
            "POST",
            base + "batches",
            "{\"notes\":[" + ok + "," + ok.replace("CD12345678", "CD1") + "]}",
            TOKEN),
        "notes[1].serial");
    assertField(
        send(
            "POST",
            base + "batches",
            "{\"notes\":[" + ok.replace("\"denomination\":50", "\"denomination\":3") + "]}",
            TOKEN),
        "notes[0].denomination");
    assertField(
        send(
            "POST",
            base + "batches",
            "{\"notes\":[" + ok.replace("\"denomination\":50", "\"denomination\":\"fifty\"") + "]}",
            TOKEN),
        "notes[0].denomination");
    assertField(
        send(
            "POST",
            base + "batches",
            "{\"notes\":[" + ok.replace("\"atm\"", "\"kiosk\"") + "]}",
            TOKEN),
        "notes[0].deviceKind");
    assertField(
        send(
            "POST",
            base + "batches",
            "{\"notes\":[" + ok.replace("2031-08-01T03:00:00Z", "yesterday") + "]}",
            TOKEN),
        "notes[0].time");
    assertField(
        send(
            "POST",
            base + "batches",
            "{\"notes\":[" + ok.replace("\"CNY\"", "\"XYZ\"") + "]}",
            TOKEN),
        "notes[0].currency");
    assertField(
        send(
            "POST",
            base + "batches",
            "{\"notes\":[" + ok.replace("\"record\":0", "\"record\":-1") + "]}",
            TOKEN),
        "notes[0].record");
    StringBuilder many = new StringBuilder("{\"notes\":[");
    for (int i = 0; i < 1001; i++) {
      many.append(i == 0 ? "" : ",").append(ok);
    }
    assertField(send("POST", base + "batches", many.append("]}").toString(), TOKEN), "notes");
    assertThat(send("GET", base + "CD12345678", null, null).statusCode())
        .as("nothing stored")
        .isEqualTo(200);
    assertThat(json(send("GET", base + "CD12345678", null, null)).get("notes")).isEmpty();

    assertField(send("GET", base + "AB", null, null), "serial");
    assertField(send("GET", base + "AB12345678?images=maybe", null, null), "images");
    assertField(send("GET", base + "AB12345678?cursor=garbage", null, null), "cursor");
    String device = base + "devices/ATM-1";
    assertField(send("GET", device + "?to=2031-01-01", null, null), "from");
    assertField(send("GET", device + "?from=2031-01-01&to=soon", null, null), "to");
    assertField(send("GET", device + "?from=2031-01-02&to=2031-01-01", null, null), "to");
    assertField(send("GET", base + "suspects?day=2031-01-01", null, null), "branch");
    assertField(send("GET", base + "suspects?branch=b&day=01/02/2031", null, null), "day");
  }

  /** A 2014 FSN file without images of {@code n} sorter notes; record 5 has denomination 3. */
  private byte[] fsnFile(String serialPrefix, int n) {
    List<FsnRecord> records = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      Note note =
          new Note(
              String.format("%s%08d", serialPrefix, 20_000_000 + i),
              100,
              "CNY",
              2015,
              "SORTER/" + run,
              DeviceKind.SORTER,
              "br-" + run,
              Operation.SORTING,
              Instant.parse("2031-08-02T03:00:00Z").plusSeconds(2L * i),
              "B-" + run,
              Verdict.GENUINE,
              List.of(0, 0, 0),
              "x.fsn",
              i,
              null);
      FsnRecord r = FsnNotes.record(note, ZoneId.of("Asia/Shanghai"), true);
      if (i == 5) {
        r =
            new FsnRecord(
                r.date(),
                r.time(),
                r.tfFlag(),
                r.errorCodes(),
                r.currency(),
                r.edition(),
                3,
                r.charCount(),
                r.serial(),
                r.machine(),
                r.reserve1(),
                r.image());
      }
      records.add(r);
    }
    return new FsnFile(FsnHeader.of(FsnVariant.FSN2014_NO_IMAGES), records).bytes();
  }

  private HttpResponse<String> postFsn(String query, byte[] body) throws Exception {
    return client.send(
        HttpRequest.newBuilder(URI.create(base + "fsn" + query))
            .header("Authorization", "Bearer " + TOKEN)
            .header("Content-Type", "application/octet-stream")
            .POST(HttpRequest.BodyPublishers.ofByteArray(body))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void theCollectorStoresAnFsnPieceUnderTheWholeFilesRecordNumbers() throws Exception {
    byte[] file = fsnFile("EF", 30);
    String source = enc("br-" + run + "_sorting_B-" + run + ".fsn");
    byte[] piece = FsnFile.chunk(file, 4, 10);
    for (int attempt = 0; attempt < 2; attempt++) {
      HttpResponse<String> r = postFsn("?source=" + source + "&first=4", piece);
      assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
      JsonNode answer = json(r);
      assertThat(answer.get("stored").asInt()).isEqualTo(9);
      assertThat(answer.get("rejected")).hasSize(1);
      assertThat(answer.get("rejected").get(0).get("record").asInt()).isEqualTo(5);
      assertThat(answer.get("rejected").get(0).get("field").asText()).isEqualTo("denomination");
    }
    JsonNode history = json(send("GET", base + "EF20000006", null, null));
    assertThat(history.get("notes")).as("a re-sent piece overwrites itself").hasSize(1);
    JsonNode n = history.get("notes").get(0);
    assertThat(n.get("record").asInt()).isEqualTo(6);
    assertThat(n.get("device").asText()).isEqualTo("SORTER/" + run);
    assertThat(n.get("branch").asText()).isEqualTo("br-" + run);
    assertThat(n.get("batch").asText()).isEqualTo("B-" + run);
    assertThat(n.get("operation").asText()).isEqualTo("sorting");
    assertThat(n.get("time").asText()).isEqualTo("2031-08-02T03:00:12Z");
    JsonNode batch =
        json(send("GET", base + "batches/" + enc("B-" + run) + "?limit=1000", null, null));
    assertThat(batch.get("notes")).hasSize(9);
    // The agent's options travel with the piece: a name without a branch takes ?branch=.
    HttpResponse<String> named =
        postFsn(
            "?source=plain.fsn&first=0&branch=" + enc("other-" + run) + "&operation=counting",
            FsnFile.chunk(file, 0, 1));
    assertThat(json(named).get("stored").asInt()).isEqualTo(1);
    JsonNode other = json(send("GET", base + "EF20000000", null, null)).get("notes");
    assertThat(other).hasSize(1);
    assertThat(other.get(0).get("branch").asText()).isEqualTo("other-" + run);
    assertThat(other.get(0).get("operation").asText()).isEqualTo("counting");
    assertThat(other.get(0).get("batch").asText()).isEqualTo("plain");
  }

  @Test
  void aBadFsnPieceIs400NamingTheFieldAndNothingOfItIsStored() throws Exception {
    byte[] file = fsnFile("GH", 20);
    String ok = "?source=" + enc("br-" + run + "_sorting_B-" + run + ".fsn") + "&first=0";
    byte[] piece = FsnFile.chunk(file, 0, 20);
    byte[] truncated = java.util.Arrays.copyOf(piece, piece.length - 40);
    assertField(postFsn(ok, truncated), "body");
    assertThat(postFsn(ok, truncated).body()).contains("truncated record");
    byte[] header = piece.clone();
    header[0] = 21;
    assertField(postFsn(ok, header), "body");
    assertThat(postFsn(ok, header).body()).contains("wrong header");
    byte[] count = piece.clone();
    count[20] = 99;
    assertField(postFsn(ok, count), "body");
    assertThat(postFsn(ok, count).body()).contains("impossible count");
    assertField(postFsn(ok, new byte[0]), "body");
    byte[] big = fsnFile("GJ", 1001);
    assertField(postFsn(ok, big), "body");
    assertThat(postFsn(ok, big).body()).contains("at most 1000");
    assertField(postFsn("?first=0", piece), "source");
    assertField(postFsn("?source=notes.jsonl&first=0", piece), "source");
    assertField(postFsn(ok.replace("first=0", "first=-1"), piece), "first");
    assertField(postFsn(ok.replace("first=0", "first=ten"), piece), "first");
    assertField(postFsn(ok.replace("&first=0", ""), piece), "first");
    assertField(postFsn(ok + "&kind=kiosk", piece), "kind");
    assertField(postFsn(ok + "&operation=juggling", piece), "operation");
    assertField(postFsn(ok + "&zone=Mars%2FOlympus", piece), "zone");
    assertField(postFsn(ok + "&device=" + "d".repeat(65), piece), "device");
    assertField(postFsn("?source=plain.fsn&first=0", piece), "branch");
    assertThat(json(send("GET", base + "GH20000000", null, null)).get("notes"))
        .as("nothing of a refused piece is stored")
        .isEmpty();
    assertThat(json(send("GET", base + "GJ20000000", null, null)).get("notes")).isEmpty();
  }

  @Test
  void everyListingTakesLimit1000AndRefuses1001() throws Exception {
    List<String> listings =
        List.of(
            base + "AB12345678?",
            base + "devices/ATM-1?from=2031-01-01&to=2031-01-02&",
            base + "batches/T1?",
            base + "suspects?branch=b&day=2031-01-01&");
    for (String l : listings) {
      HttpResponse<String> ok = send("GET", l + "limit=1000", null, null);
      assertThat(ok.statusCode()).as(l + ok.body()).isEqualTo(200);
      assertThat(json(ok).has("next")).isTrue();
      assertField(send("GET", l + "limit=1001", null, null), "limit");
      assertField(send("GET", l + "limit=0", null, null), "limit");
    }
  }

  private static void assertField(HttpResponse<String> r, String field) throws Exception {
    assertThat(r.statusCode()).as(r.body()).isEqualTo(400);
    assertThat(json(r).get("field").asText()).as(r.body()).isEqualTo(field);
  }

  private static JsonNode json(HttpResponse<String> r) throws Exception {
    assertThat(r.statusCode()).as(r.body()).isEqualTo(r.statusCode() >= 400 ? r.statusCode() : 200);
    return Json.mapper().readTree(r.body());
  }

  private static String enc(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
  }
}
