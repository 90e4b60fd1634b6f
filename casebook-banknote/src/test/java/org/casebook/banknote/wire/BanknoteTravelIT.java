package org.casebook.banknote.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.casebook.banknote.wire.RestCalls.assertField;
import static org.casebook.banknote.wire.RestCalls.json;
import static org.casebook.banknote.wire.RestCalls.send;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.casebook.banknote.BanknoteService;
import org.casebook.banknote.BanknoteSystem;
import org.casebook.banknote.DeviceKind;
import org.casebook.banknote.Note;
import org.casebook.banknote.Operation;
import org.casebook.banknote.Verdict;
import org.casebook.banknote.cli.BanknoteCommand;
import org.casebook.core.AccessRule;
import org.casebook.core.HBaseRuntime;
import org.casebook.core.InvalidInputException;
import org.casebook.core.Json;
import org.casebook.core.NotFoundException;
import org.casebook.core.testing.EmbeddedHBase;
import org.casebook.core.testing.ServedSystem;
import org.casebook.core.testing.TestIds;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Impossible histories by travel: branch locations over REST and the CLI, a serial's travel check
 * and a branch's day sweep, on real HBase.
 */
@ExtendWith(EmbeddedHBase.class)
class BanknoteTravelIT {
  private static final String TOKEN = "s3cret";
  private static final String DAY = "2031-05-04";

  /** 10:00 in Beijing on the swept day. */
  private static final Instant T =
      ZonedDateTime.parse(DAY + "T10:00:00+08:00[Asia/Shanghai]").toInstant();

  private ServedSystem served;
  private String base;
  private String run;
  private int serialBase;

  // A separator and CJK in the swept branch's id; the others plain ids of this run.
  private String beijing;
  private String urumqi;
  private String beijingEast;
  private String shanghai;
  private String nowhere;
  private long record;

  @BeforeEach
  void start(HBaseRuntime runtime) throws Exception {
    served = ServedSystem.start(runtime, new BanknoteSystem(), AccessRule.token(TOKEN));
    base = served.url("/api/banknotes/");
    run = TestIds.unique("tr");
    serialBase = Math.floorMod(run.hashCode(), 1_000_000);
    beijing = "北京/东城,0100|" + run;
    urumqi = "0991-" + run;
    beijingEast = "0100-east-" + run;
    shanghai = "0210-" + run;
    nowhere = "0000-" + run;
    declare(beijing, 39.9042, 116.4074, "北京东城支行");
    declare(urumqi, 43.8256, 87.6168, "Urumqi");
    // About ten kilometres east of the Beijing branch.
    declare(beijingEast, 39.9042, 116.5215, null);
    declare(shanghai, 31.2304, 121.4737, "Shanghai");
  }

  @AfterEach
  void stop() {
    served.close();
  }

  private void declare(String branch, double lat, double lon, String name) throws Exception {
    String body =
        "{\"lat\":"
            + lat
            + ",\"lon\":"
            + lon
            + (name == null ? "" : ",\"name\":\"" + name + "\"")
            + "}";
    HttpResponse<String> r = send("PUT", base + "branches/" + path(branch), body, TOKEN);
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
  }

  /** A serial of this run: {@code prefix} and 8 digits. */
  private String serial(String prefix, int i) {
    return prefix + String.format("%08d", serialBase * 100 + i);
  }

  private Note reading(String serial, int denomination, String branch, Instant time) {
    return new Note(
        serial,
        denomination,
        "CNY",
        2019,
        "ATM-" + branch,
        DeviceKind.ATM,
        branch,
        Operation.DEPOSIT,
        time,
        "T1",
        Verdict.GENUINE,
        List.of(),
        run + ".fsn",
        record++,
        null);
  }

  private static Instant hours(double h) {
    return T.plusMillis(Math.round(h * 3_600_000));
  }

  @Test
  void aSerialFasterThanAPlaneIsAProbableCloneWithItsEvidence() throws Exception {
    BanknoteService service = new BanknoteService(served.context());
    String flown = serial("TV", 1);
    String slow = serial("TV", 2);
    String nearby = serial("TV", 3);
    String unlocated = serial("TV", 4);
    String sameInstant = serial("TV", 5);
    String faceAndPlace = serial("TV", 6);
    service.store(
        List.of(
            reading(flown, 100, beijing, T),
            reading(flown, 100, urumqi, hours(2)),
            reading(slow, 100, beijing, T),
            reading(slow, 100, urumqi, hours(5 * 24)),
            reading(nearby, 100, beijing, T),
            reading(nearby, 100, beijingEast, hours(1.0 / 60)),
            reading(unlocated, 100, beijing, T),
            reading(unlocated, 100, nowhere, hours(0.5)),
            reading(sameInstant, 100, urumqi, T),
            reading(sameInstant, 100, beijing, T),
            reading(faceAndPlace, 100, beijing, T),
            reading(faceAndPlace, 50, urumqi, hours(1))));

    JsonNode flownAnswer = json(send("GET", base + "clones/" + flown, null, null));
    assertThat(flownAnswer.get("readings").asInt()).isEqualTo(2);
    assertThat(flownAnswer.get("unlocated").asInt()).isZero();
    assertThat(flownAnswer.get("maxSpeedKmh").asInt()).isEqualTo(900);
    JsonNode clone = flownAnswer.get("clones").get(0);
    assertThat(flownAnswer.get("clones")).hasSize(1);
    assertThat(clone.get("differs").toString()).isEqualTo("[\"place\"]");
    assertThat(clone.get("earlier").get("branch").asText()).isEqualTo(beijing);
    assertThat(clone.get("later").get("branch").asText()).isEqualTo(urumqi);
    assertThat(clone.get("distanceKm").asDouble()).isBetween(2_400.0, 2_420.0);
    assertThat(clone.get("hours").asDouble()).isEqualTo(2.0);
    assertThat(clone.get("speedKmh").asDouble())
        .isCloseTo(
            clone.get("distanceKm").asDouble() / 2, org.assertj.core.data.Offset.offset(0.1));

    assertThat(service.clones(slow).clones()).as("five days apart").isEmpty();
    assertThat(service.clones(nearby).clones()).as("closer than the minimum distance").isEmpty();
    assertThat(service.clones(unlocated).clones()).isEmpty();
    assertThat(service.clones(unlocated).unlocated()).isEqualTo(1);

    JsonNode same = json(send("GET", base + "clones/" + sameInstant, null, null));
    assertThat(same.get("clones")).hasSize(1);
    assertThat(same.get("clones").get(0).get("hours").asDouble()).isZero();
    assertThat(same.get("clones").get(0).get("speedKmh").isNull()).isTrue();

    assertThat(service.clones(faceAndPlace).clones())
        .singleElement()
        .satisfies(c -> assertThat(c.differs()).containsExactly("denomination", "place"));

    // Once Urumqi's location is removed, the flight is no longer checked but counted.
    assertThat(send("DELETE", base + "branches/" + path(urumqi), null, TOKEN).statusCode())
        .isEqualTo(204);
    assertThat(service.clones(flown).clones()).isEmpty();
    assertThat(service.clones(flown).unlocated()).isEqualTo(1);
    assertThat(service.dispute(flown).clones()).isEmpty();
    declare(urumqi, 43.8256, 87.6168, "Urumqi");
    assertThat(service.dispute(flown).clones())
        .extracting(c -> c.differs())
        .containsExactly(List.of("place"));
  }

  /**
   * The swept branch reads noise all day (its serials seen elsewhere at possible speeds, nearby, at
   * a branch of no known place) and four planted clones; a fifth serial read there is a clone only
   * on a later pair elsewhere, which the sweep must leave out.
   */
  @Test
  void theDaySweepFindsExactlyThePlantedClones() throws Exception {
    BanknoteService service = new BanknoteService(served.context());
    List<Note> notes = new ArrayList<>();
    Set<String> planted = new TreeSet<>();
    // Before: read in Urumqi an hour and a half before the morning reading in Beijing.
    String arrived = serial("TV", 11);
    notes.add(reading(arrived, 100, urumqi, hours(-1.5)));
    notes.add(reading(arrived, 100, beijing, T));
    planted.add(arrived + " " + urumqi);
    // After: read in Beijing, then in Urumqi two hours later (the next day's reading too).
    String left = serial("TV", 12);
    notes.add(reading(left, 100, beijing, hours(3)));
    notes.add(reading(left, 100, urumqi, hours(5)));
    planted.add(left + " " + urumqi);
    // Read at the same instant at both branches.
    String twice = serial("TV", 13);
    notes.add(reading(twice, 100, beijing, hours(4)));
    notes.add(reading(twice, 100, urumqi, hours(4)));
    planted.add(twice + " " + urumqi);
    // A 100 in Shanghai, a 50 in Beijing the next morning: possible travel, impossible face.
    String face = serial("TV", 14);
    notes.add(reading(face, 100, shanghai, hours(-20)));
    notes.add(reading(face, 50, beijing, hours(1)));
    planted.add(face + " " + shanghai);
    // Read in Beijing, in Shanghai that evening, then impossibly soon in Urumqi the same day: a
    // clone of the day, but not of a reading at the swept branch.
    String elsewhere = serial("TV", 15);
    notes.add(reading(elsewhere, 100, beijing, hours(2)));
    notes.add(reading(elsewhere, 100, shanghai, hours(8)));
    notes.add(reading(elsewhere, 100, urumqi, hours(8.5)));
    for (int i = 0; i < 150; i++) {
      String s = serial(i < 100 ? "TW" : "TX", i % 100);
      notes.add(reading(s, 100, beijing, hours(i / 30.0)));
      switch (i % 5) {
        case 0 -> notes.add(reading(s, 100, shanghai, hours(i / 30.0 + 3)));
        case 1 -> notes.add(reading(s, 100, beijingEast, hours(i / 30.0 + 0.01)));
        case 2 -> notes.add(reading(s, 100, nowhere, hours(i / 30.0 - 0.5)));
        case 3 -> notes.add(reading(s, 100, urumqi, hours(i / 30.0 - 72)));
        default -> notes.add(reading(s, 100, beijing, hours(i / 30.0 + 1)));
      }
    }
    // Noise of another branch on the same day, including a clone of its own.
    String otherBranch = serial("TV", 16);
    notes.add(reading(otherBranch, 100, shanghai, T));
    notes.add(reading(otherBranch, 100, urumqi, hours(0.5)));
    service.store(notes);

    assertThat(service.clones(elsewhere).clones()).hasSize(1);
    Set<String> found = new TreeSet<>();
    String cursor = null;
    int pages = 0;
    int unlocated = 0;
    do {
      JsonNode page =
          json(
              send(
                  "GET",
                  base
                      + "clones?branch="
                      + query(beijing)
                      + "&day="
                      + DAY
                      + "&limit=3"
                      + (cursor == null ? "" : "&cursor=" + cursor),
                  null,
                  null));
      assertThat(page.get("serials").asInt()).isEqualTo(155);
      assertThat(page.get("truncated").asInt()).isZero();
      assertThat(page.get("maxSpeedKmh").asInt()).isEqualTo(900);
      assertThat(page.get("minDistanceKm").asInt()).isEqualTo(50);
      unlocated += page.get("unlocated").asInt();
      for (JsonNode c : page.get("clones")) {
        String from = c.get("earlier").get("branch").asText();
        String to = c.get("later").get("branch").asText();
        String serial = c.get("earlier").get("serial").asText();
        // Each planted pair joins the swept branch to one other branch.
        assertThat(from.equals(beijing) || to.equals(beijing)).as("%s", c).isTrue();
        assertThat(found.add(serial + " " + (to.equals(beijing) ? from : to)))
            .as("listed once: %s", c)
            .isTrue();
      }
      assertThat(page.get("clones").size()).isLessThanOrEqualTo(3);
      cursor = page.get("next").isNull() ? null : page.get("next").asText();
      pages++;
    } while (cursor != null);
    assertThat(found).isEqualTo(planted);
    assertThat(pages).isGreaterThan(1);
    assertThat(unlocated).as("the noise read at a branch of no known place").isEqualTo(30);

    // The CLI sweeps the same day in one page.
    String printed = cli(0, "clones", "--branch", beijing, "--day", DAY, "--limit", "1000");
    JsonNode all = Json.mapper().readTree(printed);
    assertThat(all.get("clones")).hasSize(planted.size());
    assertThat(all.get("next").isNull()).isTrue();
    assertThat(cli(0, "clones", arrived)).contains("\"place\"");

    // A cursor of another branch's sweep is refused.
    JsonNode first =
        json(
            send(
                "GET",
                base + "clones?branch=" + query(beijing) + "&day=" + DAY + "&limit=1",
                null,
                null));
    assertField(
        send(
            "GET",
            base
                + "clones?branch="
                + query(shanghai)
                + "&day="
                + DAY
                + "&cursor="
                + first.get("next").asText(),
            null,
            null),
        "cursor");
  }

  @Test
  void branchesAreDeclaredOverRestAndTheCliAndBadInputNamesTheField(@TempDir Path dir)
      throws Exception {
    JsonNode got = json(send("GET", base + "branches/" + path(beijing), null, null));
    assertThat(got.get("branch").asText()).isEqualTo(beijing);
    assertThat(got.get("lat").asDouble()).isEqualTo(39.9042);
    assertThat(got.get("name").asText()).isEqualTo("北京东城支行");
    assertThat(
            json(send("GET", base + "branches/" + path(beijingEast), null, null))
                .get("name")
                .isNull())
        .isTrue();
    assertThat(send("GET", base + "branches/" + path(nowhere), null, null).statusCode())
        .isEqualTo(404);
    assertThat(send("PUT", base + "branches/x-" + run, "{\"lat\":1,\"lon\":2}", null).statusCode())
        .as("a write needs the token")
        .isEqualTo(401);

    String put = base + "branches/" + path(nowhere);
    assertField(send("PUT", put, "{\"lat\":90.5,\"lon\":10}", TOKEN), "lat");
    assertField(send("PUT", put, "{\"lat\":-91,\"lon\":10}", TOKEN), "lat");
    assertField(send("PUT", put, "{\"lon\":10}", TOKEN), "lat");
    assertField(send("PUT", put, "{\"lat\":\"north\",\"lon\":10}", TOKEN), "lat");
    assertField(send("PUT", put, "{\"lat\":10,\"lon\":180.01}", TOKEN), "lon");
    assertField(send("PUT", put, "{\"lat\":10}", TOKEN), "lon");
    assertField(send("PUT", put, "{\"lat\":10,\"lon\":10,\"name\":\"a\\u0007b\"}", TOKEN), "name");
    assertField(send("PUT", put, "{\"lat\":10,\"lon\":10,\"height\":3}", TOKEN), "height");
    assertField(send("PUT", put, "", TOKEN), "body");
    assertField(
        send("PUT", base + "branches/" + "b".repeat(65), "{\"lat\":1,\"lon\":1}", TOKEN), "branch");
    assertField(send("GET", base + "clones?day=" + DAY, null, null), "branch");
    assertField(send("GET", base + "clones?branch=b1&day=2031-02-30", null, null), "day");
    assertField(send("GET", base + "clones?branch=b1", null, null), "day");
    assertField(
        send("GET", base + "clones?branch=b1&day=" + DAY + "&limit=1001", null, null), "limit");
    assertField(
        send("GET", base + "clones?branch=b1&day=" + DAY + "&cursor=x", null, null), "cursor");
    assertField(send("GET", base + "branches?limit=0", null, null), "limit");
    assertField(send("GET", base + "branches?limit=1001", null, null), "limit");
    assertThat(
            send("GET", base + "clones?branch=b1&day=" + DAY + "&limit=1000", null, null)
                .statusCode())
        .isEqualTo(200);
    assertThat(send("GET", base + "branches?limit=1000", null, null).statusCode()).isEqualTo(200);
    assertThat(send("GET", base + "branches/" + path(nowhere), null, null).statusCode())
        .as("nothing of the refused declarations stored")
        .isEqualTo(404);

    // The CLI: set, get, a CSV load (quotes, CJK, a header), the listing paged by id.
    cli(0, "branch", "set", nowhere, "--lat", "-33.8688", "--lon", "151.2093", "--name", "Sydney");
    assertThat(Json.mapper().readTree(cli(0, "branch", "get", nowhere)).get("lon").asDouble())
        .isEqualTo(151.2093);
    Path csv = dir.resolve("branches.csv");
    String prefix = "csv-" + run + "-";
    StringBuilder text = new StringBuilder("branch,lat,lon,name\r\n");
    for (int i = 0; i < 1_200; i++) {
      text.append(String.format("%s%04d,%.4f,%.4f,支行 %d%n", prefix, i, 20 + i / 100.0, 100.5, i));
    }
    text.append("\"").append(prefix).append("q,\"\"x\"\"\",1.5,2.5,\"Name, with comma\"\n");
    Files.writeString(csv, text, StandardCharsets.UTF_8);
    assertThat(cli(0, "branch", "load", csv.toString())).contains("\"loaded\" : 1201");
    BanknoteService service = new BanknoteService(served.context());
    assertThat(service.branch(prefix + "0999").name()).isEqualTo("支行 999");
    assertThat(service.branch(prefix + "0999").lat()).isEqualTo(29.99);
    assertThat(service.branch(prefix + "q,\"x\"").name()).isEqualTo("Name, with comma");

    List<String> listed = new ArrayList<>();
    String cursor = null;
    do {
      JsonNode page =
          json(
              send(
                  "GET",
                  base + "branches?limit=1000" + (cursor == null ? "" : "&cursor=" + cursor),
                  null,
                  null));
      page.get("branches").forEach(b -> listed.add(b.get("branch").asText()));
      cursor = page.get("next").isNull() ? null : page.get("next").asText();
    } while (cursor != null);
    List<String> ours = listed.stream().filter(b -> b.startsWith(prefix)).toList();
    assertThat(ours).hasSize(1_201).isSorted();
    assertThat(listed).contains(beijing, nowhere);
    assertThat(Json.mapper().readTree(cli(0, "branch", "list", "--limit", "2")).get("branches"))
        .hasSize(2);

    // A bad line stores nothing of the file and names its line and field.
    Path bad = dir.resolve("bad.csv");
    String badPrefix = "bad-" + run + "-";
    Files.writeString(
        bad, badPrefix + "a,10,10,\n" + badPrefix + "b,10,10\n" + badPrefix + "c,95,10,x\n");
    Throwable refused = cliFailure("branch", "load", bad.toString());
    assertThat(refused).isInstanceOf(InvalidInputException.class).hasMessageContaining("line 3");
    assertThat(((InvalidInputException) refused).field()).isEqualTo("lat");
    assertThatThrownBy(() -> service.branch(badPrefix + "a")).isInstanceOf(NotFoundException.class);
  }

  /** Runs {@code banknote <args>} on the served system's context: what it printed. */
  private String cli(int expectedExit, String... args) {
    PrintStream out = System.out;
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
    int exit;
    try {
      exit = new CommandLine(new BanknoteCommand(() -> served.context())).execute(args);
    } finally {
      System.setOut(out);
    }
    assertThat(exit).as(printed.toString(StandardCharsets.UTF_8)).isEqualTo(expectedExit);
    return printed.toString(StandardCharsets.UTF_8);
  }

  /** What {@code banknote <args>} failed with (the server maps it to exit 2 and its message). */
  private Throwable cliFailure(String... args) {
    Throwable[] thrown = new Throwable[1];
    CommandLine cli = new CommandLine(new BanknoteCommand(() -> served.context()));
    cli.setExecutionExceptionHandler(
        (e, command, parsed) -> {
          thrown[0] = e;
          return 2;
        });
    assertThat(cli.execute(args)).isEqualTo(2);
    return thrown[0];
  }

  private static String path(String id) {
    return URLEncoder.encode(id, StandardCharsets.UTF_8).replace("+", "%20");
  }

  private static String query(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8);
  }
}
