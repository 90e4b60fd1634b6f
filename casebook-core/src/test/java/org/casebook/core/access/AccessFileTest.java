package org.casebook.core.access;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.casebook.core.AccessRule;
import org.casebook.core.InvalidInputException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AccessFileTest {
  @TempDir Path dir;

  private static String hex(String token) {
    return HexFormat.of().formatHex(AccessRule.sha256(token));
  }

  private AccessRule read(String json) throws Exception {
    Path f = dir.resolve("access.json");
    Files.writeString(f, json, StandardCharsets.UTF_8);
    return AccessFile.read(f);
  }

  @Test
  void principalsGetTheirRolesAndOwnGrantsAndASystemsOwnEntryWinsOverTheWildcard()
      throws Exception {
    Files.writeString(dir.resolve("agent.token"), "agent-secret\n", StandardCharsets.UTF_8);
    AccessRule rule =
        read(
            """
            {"anonymous": {"tsdb": "read"},
             "roles": {"grafana": {"tsdb": "read"},
                       "operator": {"*": "admin", "docs": "read"}},
             "principals": [
               {"name": "grafana", "token_sha256": "%s", "roles": ["grafana"]},
               {"name": "ops", "token_sha256": "%s", "roles": ["operator"]},
               {"name": "sorter-0110", "token_file": "agent.token",
                "roles": ["grafana"], "grants": {"banknote": "write"}}]}
            """
                .formatted(hex("g-token"), hex("ops-token").toUpperCase(java.util.Locale.ROOT)));
    assertThat(rule.mode()).isEqualTo(AccessRule.Mode.FILE);
    Caller grafana = rule.byToken("g-token").orElseThrow();
    assertThat(grafana.name()).isEqualTo("grafana");
    assertThat(grafana.may("tsdb", Action.READ)).isTrue();
    assertThat(grafana.may("tsdb", Action.WRITE)).isFalse();
    assertThat(grafana.may("banknote", Action.READ)).isFalse();
    Caller ops = rule.byToken("ops-token").orElseThrow();
    assertThat(ops.may("banknote", Action.ADMIN)).isTrue();
    assertThat(ops.may(Caller.PLATFORM, Action.ADMIN)).isTrue();
    assertThat(ops.may("docs", Action.WRITE)).as("docs' own entry wins over *").isFalse();
    assertThat(ops.may("docs", Action.READ)).isTrue();
    Caller sorter = rule.byToken("agent-secret").orElseThrow();
    assertThat(sorter.may("banknote", Action.WRITE)).isTrue();
    assertThat(sorter.may("banknote", Action.ADMIN)).isFalse();
    assertThat(sorter.may("tsdb", Action.READ)).isTrue();
    assertThat(rule.byToken("nobody")).isEmpty();
    assertThat(rule.byHeader("Bearer g-token")).contains(grafana);
    assertThat(rule.byHeader("bearer g-token")).contains(grafana);
    assertThat(rule.byHeader("Basic Zzp6")).isEmpty();
    assertThat(rule.byHeader(null)).contains(rule.anonymous());
    assertThat(rule.anonymous().may("tsdb", Action.READ)).isTrue();
    assertThat(rule.anonymous().may("weibo", Action.READ)).isFalse();
    assertThat(rule.namedSystems()).containsExactly("banknote", "docs", "tsdb");
  }

  @Test
  void everyMistakeIsRefusedNamingItsPlace() {
    String ok = hex("t");
    Map<String, String> cases =
        Map.of(
            "{\"principals\":[{\"name\":\"a\",\"token_sha256\":\"%s\",\"roles\":[\"nope\"]}]}"
                .formatted(ok),
            "principals[0].roles[0]: no role is named nope",
            "{\"principals\":[{\"name\":\"a\",\"token_sha256\":\"abc\",\"grants\":{\"tsdb\":\"read\"}}]}",
            "principals[0].token_sha256: must be 64 hex digits",
            "{\"principals\":[{\"name\":\"a\",\"token_sha256\":\"%s\",\"grants\":{\"tsdb\":\"own\"}}]}"
                .formatted(ok),
            "principals[0].grants.tsdb",
            "{\"anonymous\":{\"Tsdb\":\"read\"}}",
            "anonymous: \"Tsdb\" is not a system name",
            "{\"principals\":[{\"name\":\"a\",\"grants\":{\"tsdb\":\"read\"}}]}",
            "principals[0]: give exactly one of token_sha256 and token_file",
            "{\"principal\":[]}",
            "principal: is not a field",
            "{\"principals\":[{\"name\":\"a\",\"token_sha256\":\"%s\"}]}".formatted(ok),
            "principals[0]: grants nothing",
            "{\"anonymous\":{\"tsdb\":\"admin\"}}",
            "anonymous callers cannot be given admin",
            "{\"principals\":[{\"name\":\"cli:root\",\"token_sha256\":\"%s\",\"grants\":{\"tsdb\":\"read\"}}]}"
                .formatted(ok),
            "principals[0].name: cli:root is how the audit trail names",
            ("{\"principals\":[{\"name\":\"a\",\"token_sha256\":\"%s\",\"grants\":{\"tsdb\":\"read\"}},"
                    + "{\"name\":\"b\",\"token_sha256\":\"%s\",\"grants\":{\"tsdb\":\"read\"}}]}")
                .formatted(ok, ok),
            "a and b have the same token");
    cases.forEach(
        (json, message) ->
            assertThatThrownBy(() -> read(json))
                .as(json)
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining(message));
  }

  @Test
  void oneTokenMayDoEverythingAndBeyondLoopbackPrivateSystemsCloseToAnonymousCallers() {
    AccessRule token = AccessRule.token("s3cret");
    assertThat(token.byToken("s3cret").orElseThrow().may("banknote", Action.ADMIN)).isTrue();
    assertThat(token.anonymous().may("banknote", Action.READ)).isTrue();
    assertThat(token.anonymous().may("banknote", Action.WRITE)).isFalse();
    AccessRule closed = token.closingAnonymousReads(List.of("banknote", "docs"));
    assertThat(closed.anonymous().may("banknote", Action.READ)).isFalse();
    assertThat(closed.anonymous().may("tsdb", Action.READ)).isTrue();
    assertThat(closed.byToken("s3cret").orElseThrow().may("banknote", Action.READ)).isTrue();
    AccessRule open = AccessRule.open();
    assertThat(open.byHeader("Bearer anything")).contains(open.anonymous());
    assertThat(open.anonymous().may("banknote", Action.ADMIN)).isTrue();
    AccessRule openWide = open.closingAnonymousReads(List.of("banknote"));
    assertThat(openWide.anonymous().may("banknote", Action.READ)).isFalse();
    assertThat(openWide.anonymous().may("tsdb", Action.ADMIN)).isTrue();
  }
}
