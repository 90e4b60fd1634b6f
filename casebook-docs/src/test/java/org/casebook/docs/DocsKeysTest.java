package org.casebook.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Pattern;
import org.casebook.core.key.KeyLayout;
import org.casebook.core.testing.KeyLayoutChecks;
import org.junit.jupiter.api.Test;

class DocsKeysTest {
  /** The README's worked example: a blog post and two comments on it. */
  static final String BLOG = "https://blog.example.com/p/1";

  static final long BLOG_CREATED = 1_788_998_400_000L; // 2026-09-10T00:00:00Z
  static final long FIRST_COMMENT = 1_789_000_000_000L;
  static final long SECOND_COMMENT = 1_789_000_060_000L;

  @Test
  void everyLayoutRoundTripsAndKeepsItsOrder() {
    assertThat(DocsKeys.ALL).hasSize(6);
    for (KeyLayout layout : DocsKeys.ALL) {
      KeyLayoutChecks.verify(layout, 300);
    }
  }

  @Test
  void theDescriptorListsEveryLayout() {
    assertThat(new DocsSystem().descriptor().keys()).containsExactlyElementsOf(DocsKeys.ALL);
  }

  @Test
  void aCommentKeyIsItsParentsKeyFollowedByItsOrderingPart() {
    byte[] parent = DocsKeys.DOC.encode(BLOG, "blog");
    assertThat(DocsKeys.COMMENT.prefix(BLOG, "blog")).isEqualTo(parent);
    byte[] comment = DocsKeys.COMMENT.encode(BLOG, "blog", FIRST_COMMENT, "c1");
    assertThat(java.util.Arrays.copyOf(comment, parent.length)).isEqualTo(parent);
    assertThat(DocsKeys.DOC.encode(BLOG, "bbs")).as("same id, other type").isNotEqualTo(parent);
    assertThat(DocsKeys.parseCursor("x", DocsKeys.cursor("x", new DocsKeys.Position(5, "c1"))))
        .isEqualTo(new DocsKeys.Position(5, "c1"));
  }

  @Test
  void commentIdsAndUrlsParseAndCanonicalise() {
    DocIds.CommentId c = DocIds.parseComment("c1:1789000000000:blog:" + BLOG, "id");
    assertThat(c).isEqualTo(new DocIds.CommentId("c1", FIRST_COMMENT, "blog", BLOG));
    assertThat(c.toString()).isEqualTo("c1:1789000000000:blog:" + BLOG);
    assertThat(DocIds.canonical("HTTPS://Blog.Example.COM:443/p/1#top", "id")).isEqualTo(BLOG);
    assertThat(DocIds.canonical("https://x.cn", "id")).isEqualTo("https://x.cn/");
    assertThat(DocIds.canonical("plain id 1", "id")).isEqualTo("plain id 1");
  }

  @Test
  void theReadmesWorkedExampleIsWhatTheLayoutsPrint() throws IOException {
    String readme = Files.readString(Path.of("README.md"), StandardCharsets.UTF_8);
    assertLine(readme, "docs:blog", DocsKeys.DOC.explain(BLOG, "blog"));
    assertLine(readme, "docs:comment", DocsKeys.COMMENT.explain(BLOG, "blog", FIRST_COMMENT, "c1"));
    assertLine(
        readme, "docs:comment", DocsKeys.COMMENT.explain(BLOG, "blog", SECOND_COMMENT, "c2"));
    assertLine(
        readme,
        "docs:by_source",
        DocsKeys.SOURCE_DAY.explain(
            "blog.example.com",
            "blog",
            (int) Math.floorDiv(BLOG_CREATED, 86_400_000L),
            BLOG_CREATED,
            BLOG));
    assertLine(readme, "docs:registry", DocsKeys.TYPE.explain("blog"));
    assertLine(readme, "BI:", DocsKeys.FIELD.explain("_d"));
    assertLine(readme, "DI:", DocsKeys.FIELD.explain("_d"));
    assertLine(readme, "DI:", DocsKeys.FIELD.explain("views"));
    assertLine(readme, "DI:", DocsKeys.FIELD.explain("_v"));
  }

  /** A line of the README that starts with {@code label} followed by exactly {@code bytes}. */
  private static void assertLine(String readme, String label, String bytes) {
    Pattern line =
        Pattern.compile(
            "(?m)^\\s*" + Pattern.quote(label) + "\\s*" + Pattern.quote(bytes) + "(\\s|$)");
    assertThat(line.matcher(readme).find()).as("README line '%s %s'", label, bytes).isTrue();
  }
}
