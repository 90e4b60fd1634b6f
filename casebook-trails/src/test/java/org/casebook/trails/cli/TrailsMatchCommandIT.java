package org.casebook.trails.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.List;
import org.casebook.core.HBaseRuntime;
import org.casebook.core.InvalidInputException;
import org.casebook.core.Json;
import org.casebook.core.Platform;
import org.casebook.core.SystemContext;
import org.casebook.core.schema.SchemaManager;
import org.casebook.core.testing.EmbeddedHBase;
import org.casebook.core.testing.TestIds;
import org.casebook.trails.TrailsService;
import org.casebook.trails.TrailsSystem;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** {@code trails match}: listed users directly, every user as a MapReduce job, bad options. */
@ExtendWith(EmbeddedHBase.class)
class TrailsMatchCommandIT {
  private static final LocalDate DAY = LocalDate.parse("2026-05-04");
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private PrintStream oldOut;
  private Platform platform;
  private TrailsCommand command;
  private String quick;
  private String slow;
  private Path dir;

  @BeforeEach
  void setUp(HBaseRuntime runtime) {
    new SchemaManager(runtime.connection()).ensureAll(TrailsService.schemas("trails"));
    platform = Platform.create(runtime, EmbeddedHBase.dataDir());
    SystemContext context = platform.contextFor(new TrailsSystem().descriptor());
    command = new TrailsCommand(() -> context);
    String run = TestIds.unique("cli-match");
    quick = "quick-" + run;
    slow = "slow-" + run;
    dir = EmbeddedHBase.scratchDir(run);
    String lines =
        String.join(
            "\n",
            event(quick, "login", "2026-05-04T06:00:00Z", "\"device\":\"d\",\"ip\":\"i\""),
            event(quick, "order", "2026-05-04T06:30:00Z", "\"product\":\"p\",\"price\":0.01"),
            event(slow, "login", "2026-05-04T06:00:00Z", "\"device\":\"d\",\"ip\":\"i\""),
            event(slow, "order", "2026-05-04T06:30:00.001Z", "\"product\":\"p\",\"price\":0.01"));
    new TrailsService(context).ingestLines((lines + "\n").getBytes(StandardCharsets.UTF_8));
    oldOut = System.out;
    System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
  }

  @AfterEach
  void tearDown() {
    System.setOut(oldOut);
    platform.close();
  }

  private static String event(String uid, String type, String ts, String fields) {
    return "{\"uid\":\""
        + uid
        + "\",\"type\":\""
        + type
        + "\",\"ts\":\""
        + ts
        + "\","
        + fields
        + "}";
  }

  private JsonNode printed() throws Exception {
    JsonNode answer = Json.mapper().readTree(out.toString(StandardCharsets.UTF_8));
    out.reset();
    return answer;
  }

  @Test
  void listedUsersDirectlyAndEveryUserAsAMapReduceJob() throws Exception {
    // Orders of a cent, 30 minutes after a login, exactly or a millisecond later.
    String query = "login THEN order WITHIN 30m WHERE order.price <= 0.01";
    Path users = dir.resolve("users.txt");
    Files.write(users, List.of(slow, "", quick, "nobody-" + quick));
    assertThat(command.match(query, DAY, DAY, users, false)).isZero();
    JsonNode direct = printed();
    assertThat(direct.get("mode").asText()).isEqualTo("direct");
    assertThat(direct.get("users").asInt()).isEqualTo(3);
    assertThat(direct.get("count").asInt()).isEqualTo(1);
    assertThat(direct.get("matched")).extracting(JsonNode::asText).containsExactly(quick);

    assertThat(command.match(query, DAY, DAY, null, true)).isZero();
    JsonNode all = printed();
    assertThat(all.get("mode").asText()).isEqualTo("mapreduce");
    assertThat(all.get("users").isNull()).isTrue();
    // Every user of the shared tables is tested: other tests' users may match too.
    assertThat(all.get("matched"))
        .extracting(JsonNode::asText)
        .contains(quick)
        .doesNotContain(slow);
    assertThat(all.get("count").asInt()).isEqualTo(all.get("matched").size());
  }

  @Test
  void exactlyOneOfUsersAndAllAndAGoodQuery() throws Exception {
    Path users = dir.resolve("users.txt");
    Files.write(users, List.of(quick));
    assertThatThrownBy(() -> command.match("login", DAY, DAY, users, true))
        .isInstanceOfSatisfying(
            InvalidInputException.class, e -> assertThat(e.field()).isEqualTo("users"));
    assertThatThrownBy(() -> command.match("login", DAY, DAY, null, false))
        .isInstanceOfSatisfying(
            InvalidInputException.class, e -> assertThat(e.field()).isEqualTo("users"));
    assertThatThrownBy(() -> command.match("login THEN NOT order", DAY, DAY, users, false))
        .isInstanceOfSatisfying(
            InvalidInputException.class, e -> assertThat(e.field()).isEqualTo("query"))
        .hasMessageContaining("at 12 ('NOT')");
    assertThatThrownBy(() -> command.match("login", DAY, DAY.minusDays(1), null, true))
        .as("the range is checked before a job starts")
        .isInstanceOfSatisfying(
            InvalidInputException.class, e -> assertThat(e.field()).isEqualTo("to"));
  }
}
