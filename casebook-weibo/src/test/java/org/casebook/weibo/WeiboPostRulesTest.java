package org.casebook.weibo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.casebook.core.InvalidInputException;
import org.junit.jupiter.api.Test;

/** The rules for a post's title and images, and the cells they are stored in. */
class WeiboPostRulesTest {
  private static void refused(ThrowingCallable call, String field) {
    assertThatThrownBy(call)
        .isInstanceOf(InvalidInputException.class)
        .extracting(e -> ((InvalidInputException) e).field())
        .isEqualTo(field);
  }

  @Test
  void aTitleIsOptionalOneLineAndBounded() {
    assertThat(Validation.title(null)).isNull();
    assertThat(Validation.title("标题 — a title")).isEqualTo("标题 — a title");
    assertThat(Validation.title("x".repeat(Validation.MAX_TITLE_CHARS))).hasSize(100);
    refused(() -> Validation.title("x".repeat(Validation.MAX_TITLE_CHARS + 1)), "title");
    refused(() -> Validation.title(" "), "title");
    refused(() -> Validation.title("two\nlines"), "title");
  }

  @Test
  void imagesAreHttpsUrlsOrIdsAndAtMostNine() {
    assertThat(Validation.images(null)).isEmpty();
    List<PostImage> ok =
        List.of(
            new PostImage("https://img.example/a/猫.jpg?size=large", 1080, 720, "a cat"),
            PostImage.of("upload_2026-11.29.abc"),
            PostImage.of("HTTPS://IMG.EXAMPLE/B.PNG"));
    assertThat(Validation.images(ok)).isEqualTo(ok);
    List<PostImage> nine = new ArrayList<>();
    for (int i = 0; i < Validation.MAX_IMAGES; i++) {
      nine.add(PostImage.of("id" + i));
    }
    assertThat(Validation.images(nine)).hasSize(9);
    nine.add(PostImage.of("id9"));
    refused(() -> Validation.images(nine), "images");
  }

  @Test
  void eachBadImageIsNamedByItsIndexAndField() {
    PostImage good = PostImage.of("https://img.example/a.jpg");
    refused(
        () -> Validation.images(List.of(good, good, PostImage.of("http://a/b"))), "images[2].ref");
    refused(() -> Validation.images(Arrays.asList(good, null)), "images[1]");
    for (String bad :
        List.of(
            "",
            " ",
            "ftp://img.example/a.jpg",
            "https:///no-host",
            "https://user:pw@img.example/a.jpg",
            "https://img.example/a b.jpg",
            "javascript:alert(1)",
            "has space",
            "a/b",
            "x".repeat(Validation.MAX_IMAGE_ID_CHARS + 1),
            "https://img.example/" + "x".repeat(Validation.MAX_REF_CHARS))) {
      refused(() -> Validation.images(List.of(PostImage.of(bad))), "images[0].ref");
    }
    refused(
        () -> Validation.images(List.of(new PostImage("id", 10, null, null))), "images[0].height");
    refused(
        () -> Validation.images(List.of(new PostImage("id", null, 10, null))), "images[0].width");
    refused(() -> Validation.images(List.of(new PostImage("id", 0, 10, null))), "images[0].width");
    refused(
        () -> Validation.images(List.of(new PostImage("id", 10, 65_536, null))),
        "images[0].height");
    refused(
        () -> Validation.images(List.of(new PostImage("id", null, null, " "))), "images[0].alt");
    refused(
        () ->
            Validation.images(
                List.of(new PostImage("id", null, null, "x".repeat(Validation.MAX_ALT_CHARS + 1)))),
        "images[0].alt");
  }

  @Test
  void imagesCellsRoundTrip() {
    List<PostImage> images =
        List.of(
            new PostImage("https://img.example/a.jpg", 1, 65_535, "猫 | alt"),
            PostImage.of("id-1"),
            new PostImage("id-2", null, null, "only alt"),
            new PostImage("id-3", 20, 30, null));
    assertThat(PostCodec.imagesOf(PostCodec.images(images))).isEqualTo(images);
    assertThat(PostCodec.imagesOf(null)).isEmpty();
    assertThat(PostCodec.imagesOf(PostCodec.images(List.of()))).isEmpty();
  }

  @Test
  void outboxCellsOfPlainPostsAreTheContentAsBeforeAndOthersCarryTheWholeBody() {
    PostBody plain = PostBody.of("hello 你好");
    assertThat(PostCodec.outboxValue(plain)).isEqualTo("hello 你好".getBytes(StandardCharsets.UTF_8));
    // A cell written before titles and images existed: the content alone.
    assertThat(PostCodec.outboxBodyOf("old post".getBytes(StandardCharsets.UTF_8)))
        .isEqualTo(PostBody.of("old post"));
    PostBody full = new PostBody("content", "title", List.of(new PostImage("id", 3, 4, "alt")));
    assertThat(PostCodec.outboxBodyOf(PostCodec.outboxValue(full))).isEqualTo(full);
    PostBody untitled = new PostBody("content", null, List.of(PostImage.of("id")));
    assertThat(PostCodec.outboxBodyOf(PostCodec.outboxValue(untitled))).isEqualTo(untitled);
    PostBody titled = new PostBody("content", "title", List.of());
    assertThat(PostCodec.outboxBodyOf(PostCodec.outboxValue(titled))).isEqualTo(titled);
  }

  @Test
  void aTruncatedCellIsAnErrorNotAGuess() {
    byte[] cell = PostCodec.images(List.of(new PostImage("https://img.example/a.jpg", 1, 2, "a")));
    assertThatThrownBy(() -> PostCodec.imagesOf(Arrays.copyOf(cell, cell.length - 3)))
        .isInstanceOf(IllegalStateException.class);
  }
}
