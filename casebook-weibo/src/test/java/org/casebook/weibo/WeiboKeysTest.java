package org.casebook.weibo;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.function.Function;
import java.util.regex.Pattern;
import org.casebook.core.key.KeyLayout;
import org.casebook.core.testing.KeyLayoutChecks;
import org.junit.jupiter.api.Test;

class WeiboKeysTest {
  /**
   * The README's worked example: {@code alice} publishes this post id and {@code bob} follows her.
   */
  private static final long POST_ID = (1_792_000_000_000L << PostIds.SEQUENCE_BITS) | 5;

  /** The version of bob's follow in the README's worked example. */
  private static final long FOLLOW_VERSION = 1_792_000_000_007L;

  @Test
  void everyLayoutRoundTripsAndKeepsItsOrder() {
    assertThat(WeiboKeys.ALL).hasSize(7);
    for (KeyLayout layout : WeiboKeys.ALL) {
      KeyLayoutChecks.verify(layout, 300, WeiboKeysTest::generator);
    }
  }

  /** Relation kinds are 1 and 2 only; everything else takes the defaults. */
  private static Function<Random, Object> generator(KeyLayout.Part part) {
    return part.name().equals("kind") ? r -> 1 + r.nextInt(2) : null;
  }

  @Test
  void theDescriptorListsEveryLayout() {
    assertThat(new WeiboSystem().descriptor().keys()).containsExactlyElementsOf(WeiboKeys.ALL);
  }

  @Test
  void theReadmesWorkedExampleIsWhatTheLayoutsPrint() throws IOException {
    assertThat(POST_ID).isEqualTo(1_879_048_192_000_000_005L);
    String readme = Files.readString(Path.of("README.md"), StandardCharsets.UTF_8);
    assertLine(readme, "weibo:posts", WeiboKeys.POST.explain("alice", POST_ID));
    assertLine(readme, "weibo:inbox", WeiboKeys.USER.explain("bob"));
    assertLine(readme, "i:", WeiboKeys.INBOX_ENTRY.explain(POST_ID, "alice"));
    assertLine(readme, "m:", WeiboKeys.MARKER.explain("alice"));
    assertLine(readme, "weibo:inbox", WeiboKeys.USER.explain("alice"));
    assertLine(readme, "o:", WeiboKeys.OUTBOX.explain(POST_ID));
    assertLine(
        readme, "weibo:relations", WeiboKeys.RELATION.explain("bob", WeiboKeys.FOLLOWING, "alice"));
    assertLine(readme, "p:", WeiboKeys.PENDING.explain(FOLLOW_VERSION));
    assertLine(readme, "", WeiboKeys.RELATION.explain("alice", WeiboKeys.FOLLOWER, "bob"));
    assertLine(readme, "weibo:users", WeiboKeys.USER.explain("alice"));
  }

  /** A line of the README that starts with {@code label} followed by exactly {@code bytes}. */
  private static void assertLine(String readme, String label, String bytes) {
    Pattern line =
        Pattern.compile(
            "(?m)^\\s*" + Pattern.quote(label) + "\\s*" + Pattern.quote(bytes) + "(\\s|$)");
    assertThat(line.matcher(readme).find()).as("README line '%s %s'", label, bytes).isTrue();
  }

  @Test
  void keysDecodeToWhatTheyEncode() {
    assertThat(WeiboKeys.postIdOf(WeiboKeys.post("a/b", POST_ID))).isEqualTo(POST_ID);
    assertThat(WeiboKeys.inboxEntryOf(WeiboKeys.inboxEntry(POST_ID, "用户_1")))
        .isEqualTo(new InboxEntry(POST_ID, "用户_1"));
    assertThat(WeiboKeys.otherOf(WeiboKeys.relation("1", RelationKind.FOLLOWER, "10001")))
        .isEqualTo("10001");
    assertThat(WeiboKeys.markerOf(WeiboKeys.marker("a\u0000b"))).isEqualTo("a\u0000b");
    assertThat(WeiboKeys.outboxPostIdOf(WeiboKeys.outboxEntry(POST_ID))).isEqualTo(POST_ID);
    assertThat(WeiboKeys.pendingVersionOf(WeiboKeys.pending(FOLLOW_VERSION)))
        .isEqualTo(FOLLOW_VERSION);
    assertThat(WeiboKeys.POST.prefix("1")).isEqualTo(WeiboKeys.user("1"));
    assertThat(WeiboCursors.parseTimeline(WeiboCursors.timeline(new InboxEntry(POST_ID, "x"))))
        .isEqualTo(new InboxEntry(POST_ID, "x"));
    assertThat(WeiboCursors.parsePosts(WeiboCursors.posts(POST_ID))).isEqualTo(POST_ID);
  }
}
