package org.casebook.core.access;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.casebook.core.AccessRule;
import org.casebook.core.InvalidInputException;
import org.casebook.core.Json;
import org.casebook.core.LocalFileException;

/**
 * Reads an access file (JSON):
 *
 * <pre>
 * {"anonymous": {"tsdb": "read"},
 *  "roles": {"grafana": {"tsdb": "read"}, "operator": {"*": "admin", "docs": "read"}},
 *  "principals": [
 *    {"name": "grafana", "token_sha256": "&lt;64 hex digits&gt;", "roles": ["grafana"]},
 *    {"name": "sorter-0110", "token_file": "tokens/sorter-0110", "grants": {"banknote": "write"}}]}
 * </pre>
 *
 * A principal's grants are its roles' and its own, the highest level per system; a system's own
 * entry wins over {@code *} when a caller's level is asked. A {@code token_file} (relative to the
 * access file) holds the token in its first line; {@code token_sha256} keeps only its digest. Every
 * mistake is refused naming its place ({@code principals[1].roles[0]}).
 */
public final class AccessFile {
  private static final Set<String> TOP = Set.of("anonymous", "roles", "principals");
  private static final Set<String> PRINCIPAL =
      Set.of("name", "token_sha256", "token_file", "roles", "grants");

  private AccessFile() {}

  /** The rule {@code file} declares. */
  public static AccessRule read(Path file) {
    JsonNode root;
    try {
      root = Json.mapper().readTree(Files.readAllBytes(file));
    } catch (com.fasterxml.jackson.core.JacksonException e) {
      throw new InvalidInputException(
          "access-file", file + " is not JSON: " + e.getOriginalMessage());
    } catch (IOException e) {
      throw LocalFileException.of("read the access file", file, e);
    }
    return parse(root, file.toAbsolutePath().getParent());
  }

  /** The rule {@code root} declares; token files are read relative to {@code dir}. */
  static AccessRule parse(JsonNode root, Path dir) {
    check(root != null && root.isObject(), "", "the access file must be a JSON object");
    onlyKnown(root, TOP, "");
    Map<String, Action> anonymous = grants(root.get("anonymous"), "anonymous");
    Map<String, Map<String, Action>> roles = new LinkedHashMap<>();
    JsonNode rolesNode = root.get("roles");
    if (rolesNode != null) {
      check(rolesNode.isObject(), "roles", "must be an object of role name to grants");
      rolesNode
          .fields()
          .forEachRemaining(
              e -> roles.put(e.getKey(), grants(e.getValue(), "roles." + e.getKey())));
    }
    JsonNode list = root.get("principals");
    List<Principal> principals = new ArrayList<>();
    if (list != null) {
      check(list.isArray(), "principals", "must be an array");
      for (int i = 0; i < list.size(); i++) {
        principals.add(principal(list.get(i), "principals[" + i + "]", roles, dir));
      }
    }
    return AccessRule.of(principals, anonymous);
  }

  private static Principal principal(
      JsonNode p, String at, Map<String, Map<String, Action>> roles, Path dir) {
    check(p.isObject(), at, "must be an object");
    onlyKnown(p, PRINCIPAL, at + ".");
    JsonNode name = p.get("name");
    check(
        name != null && name.isTextual() && name.asText().matches("[A-Za-z0-9._@:-]{1,64}"),
        at + ".name",
        "must be 1-64 letters, digits or . _ @ : -");
    check(
        !reserved(name.asText()),
        at + ".name",
        name.asText() + " is how the audit trail names other callers: choose another name");
    boolean hasHash = p.has("token_sha256");
    check(hasHash != p.has("token_file"), at, "give exactly one of token_sha256 and token_file");
    byte[] digest;
    if (hasHash) {
      String hex = p.get("token_sha256").asText("");
      check(hex.matches("[0-9a-fA-F]{64}"), at + ".token_sha256", "must be 64 hex digits");
      digest = HexFormat.of().parseHex(hex.toLowerCase(java.util.Locale.ROOT));
    } else {
      try {
        digest =
            AccessRule.sha256(readToken(dir.resolve(p.get("token_file").asText()), "access-file"));
      } catch (InvalidInputException e) {
        throw new InvalidInputException("access-file", at + ".token_file: " + e.getMessage());
      }
    }
    Map<String, Action> merged = new LinkedHashMap<>();
    JsonNode roleNames = p.get("roles");
    if (roleNames != null) {
      check(roleNames.isArray(), at + ".roles", "must be an array of role names");
      for (int r = 0; r < roleNames.size(); r++) {
        Map<String, Action> role = roles.get(roleNames.get(r).asText());
        check(
            role != null,
            at + ".roles[" + r + "]",
            "no role is named " + roleNames.get(r).asText() + " under roles");
        role.forEach((s, a) -> merged.merge(s, a, AccessFile::higher));
      }
    }
    grants(p.get("grants"), at + ".grants")
        .forEach((s, a) -> merged.merge(s, a, AccessFile::higher));
    check(!merged.isEmpty(), at, "grants nothing: give roles or grants");
    return new Principal(name.asText(), digest, merged);
  }

  /**
   * The token in the first line of {@code file} (a token file of {@code serve}, of a client, of an
   * access file's principal); an empty one is a 400 naming {@code field}.
   */
  public static String readToken(Path file, String field) {
    try {
      String first =
          Files.readAllLines(file, StandardCharsets.UTF_8).stream().findFirst().orElse("").strip();
      InvalidInputException.check(!first.isEmpty(), field, file + " is empty");
      return first;
    } catch (IOException e) {
      throw LocalFileException.of("read the token file", file, e);
    }
  }

  private static Map<String, Action> grants(JsonNode node, String at) {
    Map<String, Action> out = new LinkedHashMap<>();
    if (node == null) {
      return out;
    }
    check(node.isObject(), at, "must be an object of system name to none|read|write|admin");
    Iterator<Map.Entry<String, JsonNode>> it = node.fields();
    while (it.hasNext()) {
      Map.Entry<String, JsonNode> e = it.next();
      String system = e.getKey();
      check(
          system.equals("*") || system.matches("[a-z][a-z0-9]{0,19}"),
          at,
          "\"" + system + "\" is not a system name or *");
      try {
        out.put(system, Action.parse(e.getValue().asText(""), "level"));
      } catch (InvalidInputException ex) {
        throw new InvalidInputException("access-file", at + "." + system + ": " + ex.getMessage());
      }
    }
    return out;
  }

  /** The names the audit trail gives callers of its own: no principal may take them. */
  public static boolean reserved(String name) {
    return name.equals(Caller.ANONYMOUS) || name.equals("token") || name.startsWith("cli:");
  }

  private static Action higher(Action a, Action b) {
    return a.covers(b) ? a : b;
  }

  private static void onlyKnown(JsonNode node, Set<String> known, String prefix) {
    node.fieldNames()
        .forEachRemaining(
            f ->
                check(
                    known.contains(f),
                    prefix + f,
                    "is not a field of an access file here (known: "
                        + String.join(", ", new java.util.TreeSet<>(known))
                        + ")"));
  }

  private static void check(boolean ok, String at, String message) {
    if (!ok) {
      throw new InvalidInputException("access-file", (at.isEmpty() ? "" : at + ": ") + message);
    }
  }
}
