package org.casebook.trails.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import org.casebook.core.ConflictException;
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
import picocli.CommandLine;

/** {@code trails behaviour declare|list}: through picocli, and its refusals. */
@ExtendWith(EmbeddedHBase.class)
class BehaviourCommandIT {
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private PrintStream oldOut;
  private Platform platform;
  private TrailsCommand command;

  @BeforeEach
  void setUp(HBaseRuntime runtime) {
    new SchemaManager(runtime.connection()).ensureAll(TrailsService.schemas("trails"));
    platform = Platform.create(runtime, EmbeddedHBase.dataDir());
    SystemContext context = platform.contextFor(new TrailsSystem().descriptor());
    command = new TrailsCommand(() -> context);
    oldOut = System.out;
    System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
  }

  @AfterEach
  void tearDown() {
    System.setOut(oldOut);
    platform.close();
  }

  /** The names of an array of behaviours (not of their fields). */
  private static List<String> names(JsonNode behaviours) {
    List<String> out = new java.util.ArrayList<>();
    behaviours.forEach(b -> out.add(b.get("name").asText()));
    return out;
  }

  private JsonNode printed() throws Exception {
    JsonNode n = Json.mapper().readTree(out.toString(StandardCharsets.UTF_8));
    out.reset();
    return n;
  }

  @Test
  void declareAndListThroughTheCommandLine() throws Exception {
    String name = TestIds.unique("c").replace('-', '_').toLowerCase(Locale.ROOT);
    CommandLine cli = new CommandLine(command);
    assertThat(
            cli.execute(
                "behaviour",
                "declare",
                name,
                "--field",
                "contentId:TEXT",
                "--field",
                "seconds:count"))
        .isZero();
    JsonNode declared = printed();
    assertThat(declared.get("name").asText()).isEqualTo(name);
    assertThat(declared.get("id").asInt()).isBetween(5, 255);
    assertThat(declared.get("fields").findValuesAsText("kind")).containsExactly("TEXT", "COUNT");
    assertThat(cli.execute("behaviour", "list")).isZero();
    JsonNode all = printed();
    assertThat(names(all)).startsWith("login", "play", "visit", "order");
    assertThat(names(all)).contains(name);

    BehaviourCommand group = new BehaviourCommand();
    group.parent = command;
    assertThatThrownBy(() -> group.declare(name, List.of("seconds")))
        .isInstanceOfSatisfying(
            InvalidInputException.class, e -> assertThat(e.field()).isEqualTo("field"));
    assertThatThrownBy(() -> group.declare(name, List.of("seconds:DATE")))
        .isInstanceOfSatisfying(
            InvalidInputException.class, e -> assertThat(e.field()).isEqualTo("field"));
    assertThatThrownBy(() -> group.declare(name, List.of("contentId:TEXT", "seconds:MONEY")))
        .isInstanceOf(ConflictException.class)
        .hasMessageContaining(name + ".seconds is COUNT");
    assertThatThrownBy(() -> group.declare("visit", List.of("a:TEXT")))
        .isInstanceOf(ConflictException.class)
        .hasMessageContaining("built-in");
  }
}
