package org.casebook.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class IdsTest {
  @Test
  void oneRuleForIds() {
    assertThat(Ids.check("用户_1,a/b", "uid", 64)).isEqualTo("用户_1,a/b");
    // U+2D800 (CJK Extension F): its low 16 bits look like a surrogate, the character is fine.
    String extensionF = new String(Character.toChars(0x2D800));
    assertThat(Ids.check(extensionF, "uid", 64)).isEqualTo(extensionF);
    assertThatThrownBy(() -> Ids.check("a\uD800b", "uid", 64))
        .hasMessageContaining("unpaired surrogate");
    assertThatThrownBy(() -> Ids.check("a\u0001", "uid", 64)).hasMessageContaining("control");
    assertThatThrownBy(() -> Ids.check(" ", "uid", 64)).hasMessageContaining("blank");
    assertThatThrownBy(() -> Ids.check("x".repeat(65), "uid", 64))
        .hasMessageContaining("at most 64");
    assertThatThrownBy(() -> Ids.check("", "uid", 64))
        .isInstanceOf(InvalidInputException.class)
        .hasFieldOrPropertyWithValue("field", "uid");
  }
}
