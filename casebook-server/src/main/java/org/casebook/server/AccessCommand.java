package org.casebook.server;

import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.casebook.core.AccessRule;
import org.casebook.core.InvalidInputException;
import org.casebook.core.Json;
import org.casebook.core.access.AccessFile;
import org.casebook.core.access.Caller;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code casebook access token|check}: make a principal's token; check an access file. */
@Command(
    name = "access",
    mixinStandardHelpOptions = true,
    description = "Tokens and access files for serve --access-file.",
    subcommands = {AccessCommand.Token.class, AccessCommand.Check.class})
final class AccessCommand {
  @Command(
      name = "token",
      mixinStandardHelpOptions = true,
      description =
          "Make a random token and print it with the principal to add to an access file (which"
              + " keeps only its SHA-256).")
  static final class Token implements Callable<Integer> {
    @Option(
        names = "--name",
        required = true,
        paramLabel = "NAME",
        description = "The principal's name, as the audit trail will show it.")
    String name;

    @Option(
        names = "--role",
        paramLabel = "ROLE",
        description = "A role of the access file to give it (repeatable).")
    List<String> roles = new ArrayList<>();

    @Override
    public Integer call() throws Exception {
      InvalidInputException.check(
          name.matches("[A-Za-z0-9._@:-]{1,64}") && !AccessFile.reserved(name),
          "name",
          "must be 1-64 letters, digits or . _ @ : -, and not anonymous, token or cli:…");
      InvalidInputException.check(
          !roles.isEmpty(),
          "role",
          "give at least one --role: a principal without grants is refused");
      byte[] raw = new byte[32];
      new SecureRandom().nextBytes(raw);
      String token = Base64.getUrlEncoder().withoutPadding().encodeToString(raw);
      Map<String, Object> principal = new LinkedHashMap<>();
      principal.put("name", name);
      principal.put("token_sha256", HexFormat.of().formatHex(AccessRule.sha256(token)));
      principal.put("roles", roles);
      System.out.println("token (give it to " + name + "; it is not kept anywhere): " + token);
      System.out.println("principal for the access file's \"principals\":");
      System.out.println(Json.mapper().writeValueAsString(principal));
      return 0;
    }
  }

  @Command(
      name = "check",
      mixinStandardHelpOptions = true,
      description = "Read an access file and print who may do what (exit 2 naming any mistake).")
  static final class Check implements Callable<Integer> {
    @Option(
        names = "--access-file",
        required = true,
        paramLabel = "FILE",
        description = "The access file serve would be given.")
    Path file;

    @Override
    public Integer call() {
      AccessRule rule = AccessFile.read(file);
      System.out.println(rule);
      System.out.printf("  %-24s %s%n", Caller.ANONYMOUS, rule.anonymous().grants());
      for (var p : rule.principals()) {
        System.out.printf("  %-24s %s%n", p.name(), p.grants());
      }
      return 0;
    }
  }
}
