package org.casebook.docs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Table;
import org.casebook.core.HBaseRuntime;
import org.casebook.core.NotFoundException;
import org.casebook.core.Platform;
import org.casebook.core.page.PageRequest;
import org.casebook.core.testing.EmbeddedHBase;
import org.casebook.core.testing.TestIds;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The retention setting on real HBase: documents whose last change is older than their type's rule
 * are deleted with their comments, index entries, corrections and history; younger ones, a type
 * without a rule and an old document changed recently stay.
 */
@ExtendWith(EmbeddedHBase.class)
class DocsRetentionIT {
  private static final Map<String, String> SETTINGS =
      Map.of("docs.namespace", "docsret", "docs.retention", "news=30d,blog=30d");

  private static Map<String, Object> page(String url, String created) {
    Map<String, Object> f = new LinkedHashMap<>();
    f.put("title", "t " + url);
    f.put("content", "正文 " + url);
    f.put("author", "a");
    f.put("created", created);
    f.put("url", url);
    return f;
  }

  @Test
  void documentsOlderThanTheirTypesRuleGoWithTheirCommentsAndIndexEntries(HBaseRuntime runtime)
      throws Exception {
    String run = TestIds.unique("ret");
    String host = run + ".example";
    String day = "2026-06-01";
    Instant now = Instant.now();
    Clock past = Clock.fixed(now.minus(Duration.ofDays(45)), ZoneOffset.UTC);
    String oldNews = "https://" + host + "/old-news";
    String oldBlog = "https://" + host + "/old-blog";
    String oldBbs = "https://" + host + "/old-bbs";
    String touched = "https://" + host + "/touched";
    String recent = "https://" + host + "/recent";
    String commentId;
    try (Platform then = Platform.builder(runtime, EmbeddedHBase.dataDir()).clock(past).build()) {
      DocsService docs = new DocsService(then.contextFor(new DocsSystem().descriptor(), SETTINGS));
      docs.put("news", oldNews, page(oldNews, day + "T01:00:00Z"), OptionalLong.empty());
      // Corrected by hand: its corrections and history must go with it.
      docs.patch(
          "news",
          oldNews,
          Map.of("title", "corrected"),
          OptionalLong.of(docs.get("news", oldNews).version()));
      assertThat(docs.history("news", oldNews, PageRequest.first(10)).entries()).hasSize(1);
      docs.put("news", touched, page(touched, day + "T02:00:00Z"), OptionalLong.empty());
      docs.put("blog", oldBlog, page(oldBlog, day + "T03:00:00Z"), OptionalLong.empty());
      docs.put("bbs", oldBbs, page(oldBbs, day + "T04:00:00Z"), OptionalLong.empty());
      commentId =
          docs.addComment(
                  "blog",
                  oldBlog,
                  null,
                  "c1",
                  Map.of("content", "评论", "author", "u", "created", now.toEpochMilli()))
              .id();
    }
    try (Platform today = Platform.create(runtime, EmbeddedHBase.dataDir())) {
      DocsService docs = new DocsService(today.contextFor(new DocsSystem().descriptor(), SETTINGS));
      docs.put("news", recent, page(recent, day + "T05:00:00Z"), OptionalLong.empty());
      docs.patch("news", touched, Map.of("section", "world"), OptionalLong.empty());
      assertThat(
              docs.comments("blog", oldBlog, null, CommentOrder.NEWEST, PageRequest.first(10))
                  .items())
          .hasSize(1);

      Map<String, Long> purged = docs.purgeExpired();

      assertThat(purged)
          .containsEntry("news", 1L)
          .containsEntry("blog", 1L)
          .doesNotContainKey("bbs");
      assertThatThrownBy(() -> docs.get("news", oldNews)).isInstanceOf(NotFoundException.class);
      try (Table news = runtime.connection().getTable(DocsSchema.in("docsret").table("news"))) {
        byte[] row = DocsKeys.DOC.encode(oldNews, "news");
        assertThat(news.get(new Get(row).addFamily(DocsSchema.H)).isEmpty())
            .as("history of a purged document")
            .isTrue();
        assertThat(
                news.get(new Get(row).addColumn(DocsSchema.DI, DocsSchema.CORRECTIONS)).isEmpty())
            .as("corrections of a purged document")
            .isTrue();
      }
      assertThatThrownBy(() -> docs.get("blog", oldBlog)).isInstanceOf(NotFoundException.class);
      assertThat(docs.get("bbs", oldBbs).id()).isEqualTo(oldBbs);
      assertThat(docs.get("news", touched).fields()).containsEntry("section", "world");
      assertThat(docs.get("news", recent).id()).isEqualTo(recent);
      assertThat(docs.bySource("news", host, day, PageRequest.first(10)).items())
          .extracting(Document::id)
          .containsExactly(touched, recent);
      assertThat(docs.bySource("blog", host, day, PageRequest.first(10)).items()).isEmpty();
      assertThatThrownBy(
              () ->
                  docs.comments("blog", oldBlog, null, CommentOrder.NEWEST, PageRequest.first(10)))
          .isInstanceOf(NotFoundException.class);
      assertThatThrownBy(() -> docs.get("comment", commentId))
          .as("the comment went with its document")
          .isInstanceOf(NotFoundException.class);
      assertThat(docs.purgeExpired()).isEmpty();
    }
  }

  @Test
  void rulesReadAsTheSettingWritesThem() {
    DocsRetention r = DocsRetention.parse(" news=365d , bbs=12w,*=2y");
    assertThat(r.keepMs("news")).hasValue(365 * 86_400_000L);
    assertThat(r.keepMs("bbs")).hasValue(84 * 86_400_000L);
    assertThat(r.keepMs("blog")).hasValue(730 * 86_400_000L);
    assertThat(r).hasToString("news=365d,bbs=84d,*=730d");
    assertThat(DocsRetention.parse("").keepsEverything()).isTrue();
    assertThat(DocsRetention.parse("news=1d").keepMs("blog")).isEmpty();
    for (String bad : List.of("news", "news=", "news=3x", "news=0d", "news=1d,news=2d")) {
      assertThatThrownBy(() -> DocsRetention.parse(bad))
          .as(bad)
          .isInstanceOf(IllegalArgumentException.class);
    }
  }
}
