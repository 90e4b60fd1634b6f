package org.casebook.banknote.cli;

import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.casebook.banknote.BranchLocation;
import org.casebook.banknote.wire.BanknoteRoutes;
import org.casebook.core.InvalidInputException;
import org.casebook.core.Json;
import org.casebook.core.LocalFileException;
import org.casebook.core.cli.PageOptions;
import org.casebook.core.page.Page;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code casebook banknote branch set|get|list|remove|load}: where the bank's branches are. */
@Command(
    name = "branch",
    mixinStandardHelpOptions = true,
    description =
        "Branch locations (latitude, longitude, name): what the clone checks measure travel by.")
final class BranchCommand {
  @ParentCommand BanknoteCommand parent;

  @Command(
      name = "set",
      mixinStandardHelpOptions = true,
      description = "Declare where a branch is (replaces an earlier declaration).")
  int set(
      @Parameters(paramLabel = "BRANCH", description = "The branch id, as its devices report it.")
          String branch,
      @Option(
              names = "--lat",
              required = true,
              paramLabel = "DEGREES",
              description = "Latitude, -90..90.")
          double lat,
      @Option(
              names = "--lon",
              required = true,
              paramLabel = "DEGREES",
              description = "Longitude, -180..180.")
          double lon,
      @Option(names = "--name", paramLabel = "NAME", description = "What people call it.")
          String name) {
    BranchLocation b = parent.service().putBranch(branch, lat, lon, name);
    System.out.println(Json.writePretty(BanknoteRoutes.BranchJson.of(b)));
    return 0;
  }

  @Command(name = "get", mixinStandardHelpOptions = true, description = "Where a branch is.")
  int get(@Parameters(paramLabel = "BRANCH", description = "The branch id.") String branch) {
    System.out.println(
        Json.writePretty(BanknoteRoutes.BranchJson.of(parent.service().branch(branch))));
    return 0;
  }

  @Command(
      name = "list",
      mixinStandardHelpOptions = true,
      description = "Branches with a location, by id.")
  int list(@Mixin PageOptions page) {
    Page<BranchLocation> p = parent.service().branches(page.request(100));
    System.out.println(
        Json.writePretty(
            new BanknoteRoutes.BranchesPage(
                p.items().stream().map(BanknoteRoutes.BranchJson::of).toList(), p.nextOrNull())));
    return 0;
  }

  @Command(
      name = "remove",
      mixinStandardHelpOptions = true,
      description = "Remove a branch's location (its readings are then not checked for travel).")
  int remove(@Parameters(paramLabel = "BRANCH", description = "The branch id.") String branch) {
    parent.service().deleteBranch(branch);
    System.out.println(Json.writePretty(Map.of("removed", branch)));
    return 0;
  }

  @Command(
      name = "load",
      mixinStandardHelpOptions = true,
      description =
          "Load branch locations from a UTF-8 CSV file, one a line: branch,lat,lon,name (header"
              + " line optional, name optional, RFC 4180 quotes); a bad line stores nothing.")
  int load(@Parameters(paramLabel = "FILE", description = "The CSV file.") Path file) {
    if (!Files.isRegularFile(file)) {
      throw new InvalidInputException("FILE", "no such file: " + file);
    }
    String text;
    try {
      text =
          StandardCharsets.UTF_8
              .newDecoder()
              .decode(java.nio.ByteBuffer.wrap(Files.readAllBytes(file)))
              .toString();
    } catch (CharacterCodingException e) {
      throw new InvalidInputException("FILE", file + " is not UTF-8 text");
    } catch (IOException e) {
      throw LocalFileException.of("read", file, e);
    }
    int loaded = parent.service().loadBranches(text);
    System.out.println(Json.writePretty(Map.of("file", file.toString(), "loaded", loaded)));
    return 0;
  }
}
