package org.casebook.trails.cli;

import java.util.ArrayList;
import java.util.List;
import org.casebook.core.Enums;
import org.casebook.core.InvalidInputException;
import org.casebook.core.Json;
import org.casebook.trails.Behaviour;
import org.casebook.trails.wire.TrailsRoutes.BehaviourBody;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code casebook trails behaviour declare|list}: the registry of behaviour types. */
@Command(
    name = "behaviour",
    mixinStandardHelpOptions = true,
    description =
        "Behaviour types: the four built-ins and those declared, with their fields (declared ones"
            + " are accepted by every ingest and read by every query).")
final class BehaviourCommand {
  @ParentCommand TrailsCommand parent;

  @Command(
      name = "declare",
      mixinStandardHelpOptions = true,
      description =
          "Declare a behaviour, or add fields to one (give every field, the declared ones too; a"
              + " field's kind never changes and none is removed).")
  int declare(
      @Parameters(
              paramLabel = "NAME",
              description = "Lower-case name as logs write it: [a-z][a-z0-9_]{0,31}.")
          String name,
      @Option(
              names = "--field",
              required = true,
              paramLabel = "NAME:KIND",
              description = "A field and its kind, TEXT, COUNT or MONEY (repeat for each field).")
          List<String> fields) {
    List<Behaviour.Field> parsed = new ArrayList<>();
    for (String f : fields) {
      int colon = f.lastIndexOf(':');
      InvalidInputException.check(
          colon > 0 && colon < f.length() - 1,
          "field",
          "--field takes NAME:KIND (KIND is TEXT, COUNT or MONEY), got '" + f + "'");
      parsed.add(
          new Behaviour.Field(
              f.substring(0, colon),
              Enums.parse(Behaviour.Kind.class, f.substring(colon + 1), "field")));
    }
    Behaviour b = parent.service().declareBehaviour(name, parsed);
    System.out.println(Json.writePretty(BehaviourBody.of(b)));
    return 0;
  }

  @Command(
      name = "list",
      mixinStandardHelpOptions = true,
      description = "Every behaviour by id, the built-ins included, with its fields.")
  int list() {
    System.out.println(
        Json.writePretty(parent.service().behaviours().stream().map(BehaviourBody::of).toList()));
    return 0;
  }
}
