package org.casebook.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.casebook.core.http.RouteSpec;
import org.junit.jupiter.api.Test;

class SystemDescriptorTest {
  private static RouteSpec get(String pattern) {
    return new RouteSpec("GET", pattern, "test", false);
  }

  @Test
  void routesLiveUnderTheSystemsPrefix() {
    assertThat(
            new SystemDescriptor(
                    "foo", "s", List.of(), List.of(), List.of(get("/api/foo/x")), List.of())
                .protocolPaths())
        .isEmpty();
    assertThatThrownBy(
            () ->
                new SystemDescriptor(
                    "foo", "s", List.of(), List.of(), List.of(get("/api/bar/x")), List.of()))
        .hasMessageContaining("outside /api/foo/");
    assertThatThrownBy(
            () ->
                new SystemDescriptor(
                    "foo", "s", List.of(), List.of(), List.of(get("/api/foobar")), List.of()))
        .hasMessageContaining("outside /api/foo/");
  }

  @Test
  void aProtocolPathAdmitsTheRoutesAWireProtocolFixes() {
    SystemDescriptor d =
        new SystemDescriptor(
            "tsdb",
            "s",
            List.of(),
            List.of(),
            List.of(get("/api/put"), get("/api/query/last")),
            List.of(),
            List.of("/api/put", "/api/query"));
    assertThat(d.routes()).hasSize(2);
    assertThatThrownBy(
            () ->
                new SystemDescriptor(
                    "tsdb",
                    "s",
                    List.of(),
                    List.of(),
                    List.of(get("/api/putx")),
                    List.of(),
                    List.of("/api/put")))
        .hasMessageContaining("outside");
    assertThatThrownBy(
            () ->
                new SystemDescriptor(
                    "tsdb",
                    "s",
                    List.of(),
                    List.of(),
                    List.of(),
                    List.of(),
                    List.of("/api/health")))
        .hasMessageContaining("bad protocol path");
  }
}
