package org.casebook.weibo.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.casebook.core.InvalidInputException;
import org.casebook.weibo.PostImage;
import org.junit.jupiter.api.Test;

class WeiboImageSpecsTest {
  @Test
  void aSpecIsARefThenOptionallyASizeAndAnAltThatMayHoldBars() {
    assertThat(
            ImageSpecs.parse(
                List.of(
                    "https://img.example/a.jpg",
                    "id-1|1080x720",
                    "id-2||a | b",
                    "https://img.example/c.jpg|20x30|猫")))
        .containsExactly(
            PostImage.of("https://img.example/a.jpg"),
            new PostImage("id-1", 1080, 720, null),
            new PostImage("id-2", null, null, "a | b"),
            new PostImage("https://img.example/c.jpg", 20, 30, "猫"));
  }

  @Test
  void aBadSizeNamesTheImage() {
    for (String bad : List.of("id|10", "id|x10", "id|10x", "id|10x-1", "id|9999999999x1")) {
      assertThatThrownBy(() -> ImageSpecs.parse(List.of("id", bad)))
          .isInstanceOf(InvalidInputException.class)
          .extracting(e -> ((InvalidInputException) e).field())
          .isEqualTo("images[1].width");
    }
  }
}
