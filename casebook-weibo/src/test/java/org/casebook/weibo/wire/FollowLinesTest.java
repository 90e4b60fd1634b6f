package org.casebook.weibo.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.casebook.core.InvalidInputException;
import org.casebook.weibo.Follow;
import org.junit.jupiter.api.Test;

class FollowLinesTest {
  @Test
  void linesBecomeEdgesSkippingBlanksAndComments() {
    assertThat(
            FollowLines.parse(
                List.of("# a graph", "bob\talice", "", "  ", "用户 1\ta,b/c"), "g.tsv", "file"))
        .containsExactly(new Follow("bob", "alice"), new Follow("用户 1", "a,b/c"));
  }

  @Test
  void aLineWithoutExactlyOneTabNamesTheFileAndLine() {
    for (String bad : List.of("bob alice", "a\tb\tc")) {
      assertThatThrownBy(() -> FollowLines.parse(List.of("x\ty", bad), "g.tsv", "file"))
          .isInstanceOf(InvalidInputException.class)
          .hasMessageContaining("g.tsv:2")
          .extracting(e -> ((InvalidInputException) e).field())
          .isEqualTo("file");
    }
  }
}
