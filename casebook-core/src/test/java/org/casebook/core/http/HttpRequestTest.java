package org.casebook.core.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.casebook.core.InvalidInputException;
import org.junit.jupiter.api.Test;

class HttpRequestTest {
  @Test
  void decodesPathsAndQueriesStrictly() {
    assertThat(HttpRequest.decodePath("a+b%2Fc", "id")).isEqualTo("a+b/c");
    assertThat(HttpRequest.parseQuery("q=a+b&x=%E7%94%A8").get("q")).containsExactly("a b");
    assertThat(HttpRequest.parseQuery("q=a+b&x=%E7%94%A8").get("x")).containsExactly("用");
    assertThatThrownBy(() -> HttpRequest.decodePath("%ZZ", "id"))
        .isInstanceOf(InvalidInputException.class)
        .hasFieldOrPropertyWithValue("field", "id");
    assertThatThrownBy(() -> HttpRequest.decodePath("abc%4", "id"))
        .isInstanceOf(InvalidInputException.class);
    // Two different byte strings must never decode to the same id (no U+FFFD aliasing).
    assertThatThrownBy(() -> HttpRequest.decodePath("%FF", "id"))
        .isInstanceOf(InvalidInputException.class);
    assertThatThrownBy(() -> HttpRequest.decodePath("%C3%28", "id"))
        .isInstanceOf(InvalidInputException.class);
    assertThatThrownBy(() -> HttpRequest.parseQuery("limit=%FE"))
        .isInstanceOf(InvalidInputException.class)
        .hasFieldOrPropertyWithValue("field", "limit");
  }
}
