package org.casebook.weibo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.casebook.core.HBaseRuntime;
import org.casebook.core.InvalidInputException;
import org.casebook.core.NotFoundException;
import org.casebook.core.Platform;
import org.casebook.core.page.PageRequest;
import org.casebook.core.schema.SchemaManager;
import org.casebook.core.testing.EmbeddedHBase;
import org.casebook.core.testing.TestIds;
import org.casebook.weibo.cli.WeiboCommand;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import picocli.CommandLine;

/** Posts with a title and images: every read path returns them, old posts still read. */
@ExtendWith(EmbeddedHBase.class)
class WeiboPostMediaIT {
  private static final List<PostImage> IMAGES =
      List.of(
          new PostImage("https://img.example/cat.jpg", 1080, 720, "a cat on a mat"),
          PostImage.of("upload-42.png"));

  private HBaseRuntime runtime;
  private Platform platform;
  private WeiboService weibo;
  private String run;

  @BeforeEach
  void setUp(HBaseRuntime runtime) {
    this.runtime = runtime;
    new SchemaManager(runtime.connection()).ensureAll(WeiboService.schemas("weibo"));
    platform = Platform.create(runtime, EmbeddedHBase.dataDir());
    weibo = new WeiboService(platform.contextFor("weibo"), new WeiboConfig(5, 50));
    run = TestIds.unique("m");
  }

  @AfterEach
  void tearDown() {
    weibo.close();
    platform.close();
  }

  private String u(String name) {
    return run + ":" + name;
  }

  private List<Post> timeline(String reader) {
    return weibo.timeline(reader, PageRequest.first(20)).items();
  }

  private static void assertMedia(List<Post> posts, String content, String title) {
    assertThat(posts).as("posts").extracting(Post::content).contains(content);
    Post p = posts.stream().filter(x -> x.content().equals(content)).findFirst().orElseThrow();
    assertThat(p.title()).as(content).isEqualTo(title);
    assertThat(p.images()).as(content).isEqualTo(IMAGES);
  }

  @Test
  void titleAndImagesComeBackThroughEveryReadOfAFanOutOnWriteAuthor() {
    String author = u("author");
    String reader = u("reader");
    weibo.follow(reader, author);
    Post published = weibo.publish(author, "有图有真相", "标题 title", IMAGES);
    weibo.publish(author, "plain");
    assertThat(published.title()).isEqualTo("标题 title");
    assertThat(published.images()).isEqualTo(IMAGES);

    assertMedia(timeline(reader), "有图有真相", "标题 title");
    assertMedia(weibo.posts(author, PageRequest.first(20)).items(), "有图有真相", "标题 title");
    assertThat(weibo.post(author, published.id())).isEqualTo(published);
    Post plain = timeline(reader).get(0);
    assertThat(plain.title()).isNull();
    assertThat(plain.images()).isEmpty();

    // A follow's back-fill names the posts; their bodies come from the post rows.
    String late = u("late");
    weibo.follow(late, author);
    assertMedia(timeline(late), "有图有真相", "标题 title");
  }

  /**
   * Over the threshold (5 here) posts reach followers through the author's outbox: a post copied
   * there by the promotion and one published after it keep their title and images.
   */
  @Test
  void titleAndImagesReachFollowersOfAReadMergedAccount() {
    String star = u("star");
    weibo.publish(star, "before promotion", "before", IMAGES);
    List<String> fans = new ArrayList<>();
    for (int i = 0; i < 7; i++) {
      fans.add(u("fan" + i));
      weibo.follow(fans.get(i), star);
    }
    weibo.awaitBackgroundWork();
    assertThat(weibo.stats(star).fanOutOnRead()).isTrue();
    weibo.publish(star, "after promotion", "after", IMAGES);
    for (String fan : List.of(fans.get(0), fans.get(6))) {
      List<Post> t = timeline(fan);
      assertThat(t)
          .extracting(Post::content)
          .containsExactly("after promotion", "before promotion");
      assertMedia(t, "before promotion", "before");
      assertMedia(t, "after promotion", "after");
    }
  }

  /** Rows and cells written before titles and images existed read as posts without them. */
  @Test
  void oldPostsWithoutTitleOrImagesStillRead() throws Exception {
    String author = u("old");
    String reader = u("reader");
    String star = u("oldstar");
    weibo.follow(reader, author);
    for (int i = 0; i < 6; i++) {
      weibo.follow(u("fan" + i), star);
    }
    weibo.follow(reader, star);
    weibo.awaitBackgroundWork();
    assertThat(weibo.stats(star).fanOutOnRead()).isTrue();
    long id = (System.currentTimeMillis() - 1000) << 20 | 7;
    long starId = id + 1;
    try (Table posts = runtime.connection().getTable(TableName.valueOf("weibo", "posts"));
        Table inbox = runtime.connection().getTable(TableName.valueOf("weibo", "inbox"))) {
      posts.put(
          List.of(
              new Put(WeiboKeys.post(author, id))
                  .addColumn(Bytes.toBytes("p"), Bytes.toBytes("c"), Bytes.toBytes("old post")),
              new Put(WeiboKeys.post(star, starId))
                  .addColumn(Bytes.toBytes("p"), Bytes.toBytes("c"), Bytes.toBytes("old star"))));
      inbox.put(
          List.of(
              new Put(WeiboKeys.user(reader))
                  .addColumn(Bytes.toBytes("i"), WeiboKeys.inboxEntry(id, author), new byte[0]),
              new Put(WeiboKeys.user(star))
                  .addColumn(
                      Bytes.toBytes("o"),
                      WeiboKeys.outboxEntry(starId),
                      "old star".getBytes(StandardCharsets.UTF_8))));
    }
    List<Post> t = timeline(reader);
    assertThat(t).extracting(Post::content).containsExactly("old star", "old post");
    assertThat(t).allSatisfy(p -> assertThat(p.title()).isNull());
    assertThat(t).allSatisfy(p -> assertThat(p.images()).isEmpty());
    Post own = weibo.posts(author, PageRequest.first(5)).items().get(0);
    assertThat(own)
        .isEqualTo(new Post(Long.toString(id), author, PostIds.millisOf(id), "old post"));
    assertThat(weibo.post(author, Long.toString(id))).isEqualTo(own);
  }

  @Test
  void aRefusedPublishNamesTheFieldAndStoresNothing() {
    String author = u("refused");
    String reader = u("reader");
    weibo.follow(reader, author);
    PostImage good = PostImage.of("id-1");
    record Bad(String title, List<PostImage> images, String field) {}
    List<Bad> bads =
        List.of(
            new Bad(" ", List.of(), "title"),
            new Bad("x".repeat(101), List.of(), "title"),
            new Bad(
                null,
                List.of(good, good, PostImage.of("http://img.example/a.jpg")),
                "images[2].ref"),
            new Bad(null, java.util.Collections.nCopies(10, good), "images"),
            new Bad(null, List.of(new PostImage("id", 0, 0, null)), "images[0].width"),
            new Bad("ok", List.of(good, new PostImage("id", null, null, "")), "images[1].alt"));
    for (Bad bad : bads) {
      assertThatThrownBy(() -> weibo.publish(author, "content", bad.title(), bad.images()))
          .as(bad.field())
          .isInstanceOf(InvalidInputException.class)
          .extracting(e -> ((InvalidInputException) e).field())
          .isEqualTo(bad.field());
    }
    assertThat(weibo.posts(author, PageRequest.first(20)).items()).isEmpty();
    assertThat(timeline(reader)).isEmpty();
    assertThat(weibo.stats(author).posts()).isZero();
    assertThatThrownBy(() -> weibo.post(author, "123")).isInstanceOf(NotFoundException.class);
  }

  @Test
  void theCliPublishesTitleAndImagesAndRefusesBadOnesWithoutStoring() {
    String author = u("cli");
    CommandLine cli = new CommandLine(new WeiboCommand(() -> weibo));
    PrintStream out = System.out;
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    int ok;
    int refused;
    try {
      System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
      ok =
          cli.execute(
              "publish",
              author,
              "from the CLI",
              "--title",
              "CLI title",
              "--image",
              "https://img.example/cat.jpg|1080x720|a cat on a mat",
              "--image",
              "upload-42.png");
      cli.setErr(
          new java.io.PrintWriter(
              new java.io.OutputStreamWriter(new ByteArrayOutputStream(), StandardCharsets.UTF_8),
              true));
      refused = cli.execute("publish", author, "never", "--image", "id", "--image", "ftp://x/y");
    } finally {
      System.setOut(out);
    }
    assertThat(ok).isZero();
    assertThat(refused).isNotZero();
    assertThat(printed.toString(StandardCharsets.UTF_8)).contains("\"title\" : \"CLI title\"");
    List<Post> posts = weibo.posts(author, PageRequest.first(5)).items();
    assertThat(posts).extracting(Post::content).containsExactly("from the CLI");
    assertMedia(posts, "from the CLI", "CLI title");
  }
}
