package org.casebook.archive.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Random;
import org.casebook.archive.StatusRecord;
import org.casebook.archive.UserRecord;
import org.junit.jupiter.api.Test;

class ArchiveReaderTest {
  private static final String ONE_USER =
      "{\"user\":{\"id\":\"1000000001\",\"screen_name\":\"a\"},\"statuses\":[{\"id\":5,"
          + "\"text\":\"hi\",\"created_at\":\"Sat Jan 05 12:00:01 +0800 2013\"},{\"id\":4,\"text\":\"yo\","
          + "\"created_at\":\"Fri Jan 04 12:00:01 +0800 2013\"}]}\n";

  private static ArchiveReader.Source of(String json) {
    return () -> new ByteArrayInputStream(json.getBytes(StandardCharsets.UTF_8));
  }

  /** Collects uids and status ids in delivery order. */
  private static final class Seen implements ArchiveReader.Sink {
    final List<Object> items = new ArrayList<>();

    @Override
    public void user(UserRecord user) {
      items.add(user.uid());
    }

    @Override
    public void status(StatusRecord status) {
      items.add(status.id());
    }
  }

  @Test
  void aGoodFileIsDeliveredUserThenStatusesWhetherHeldInMemoryOrReadTwice() throws Exception {
    for (long buffer : new long[] {1 << 20, 0}) {
      Seen seen = new Seen();
      int[] opened = {0};
      ArchiveReader.Source counting =
          () -> {
            opened[0]++;
            return of(ONE_USER).open();
          };
      assertThat(ArchiveReader.readAllOrNothing(counting, ONE_USER.length(), 2, buffer, seen))
          .isEmpty();
      assertThat(seen.items).as("buffer %d", buffer).containsExactly("1000000001", 5L, 4L);
      assertThat(opened[0]).as("reads with buffer %d", buffer).isEqualTo(buffer == 0 ? 2 : 1);
    }
  }

  @Test
  void aFileThatBreaksHalfWayDeliversNothing() throws Exception {
    String broken = ONE_USER + "{\"user\":{\"id\":\"1000000002\"},\"statuses\":[{\"id\":7,";
    for (long buffer : new long[] {1 << 20, 0}) {
      Seen seen = new Seen();
      Optional<String> failure =
          ArchiveReader.readAllOrNothing(of(broken), broken.length(), 2, buffer, seen);
      assertThat(failure).hasValueSatisfying(r -> assertThat(r).startsWith("truncated"));
      assertThat(seen.items).isEmpty();
    }
  }

  @Test
  void idsBeyondTheLongRangeMakeTheFileBadInsteadOfCrashing() throws Exception {
    String json = "{\"user\":{\"id\":\"9999999999999999999\"}}";
    assertThat(ArchiveReader.readAllOrNothing(of(json), json.length(), 1, 1 << 20, new Seen()))
        .hasValueSatisfying(r -> assertThat(r).contains("out of range"));
  }

  @Test
  void everyAttemptIsMadeAndTheLastReasonKept() throws Exception {
    int[] opened = {0};
    ArchiveReader.Source broken =
        () -> {
          opened[0]++;
          return new ByteArrayInputStream("{\"user\":".getBytes(StandardCharsets.UTF_8));
        };
    assertThat(ArchiveReader.readAllOrNothing(broken, 8, 3, 1 << 20, new Seen()))
        .hasValueSatisfying(r -> assertThat(r).startsWith("truncated"));
    assertThat(opened[0]).isEqualTo(3);
  }

  private static String user(long uid, long statusId) {
    return "{\"user\":{\"id\":"
        + uid
        + "},\"statuses\":[{\"id\":"
        + statusId
        + ",\"text\":\"t {[\\\"\",\"created_at\":\"Sat Jan 05 12:00:01 +0800 2013\"}]}";
  }

  /** A salvaging read's records and rejects, in delivery order. */
  private static final class Salvaged implements ArchiveReader.Rejects {
    final Seen seen = new Seen();
    final List<ArchiveReader.Rejected> rejected = new ArrayList<>();

    @Override
    public void reject(ArchiveReader.Rejected r) {
      rejected.add(r);
    }

    Optional<String> read(String json, long buffer) throws Exception {
      return ArchiveReader.readSalvaging(
          of(json), json.getBytes(StandardCharsets.UTF_8).length, 2, buffer, seen, this);
    }
  }

  @Test
  void salvageDeliversTheGoodUsersAndSetsAsideEachBadOneWithItsReasonAndBytes() throws Exception {
    List<String> records =
        List.of(
            "{\"user\":{\"id\":1,\"followers_count\":\"many\"}}", // wrong type, first
            user(2, 20),
            "{\"user\":{\"id\":3}, \"statuses\":[{\"id\":30,\"text\":\"x\"}]}", // missing
            "{\"user\":{\"id\":4,,}}", // invalid JSON, next to the one before
            user(5, 50),
            user(7, 70),
            "{\"followers\":[1]}"); // no user, last
    String json = String.join("\n", records) + "\n";
    for (long buffer : new long[] {1 << 20, 0}) {
      Salvaged s = new Salvaged();
      assertThat(s.read(json, buffer)).as("buffer %d", buffer).isEmpty();
      assertThat(s.seen.items).containsExactly("2", 20L, "5", 50L, "7", 70L);
      assertThat(s.rejected)
          .extracting(ArchiveReader.Rejected::index, ArchiveReader.Rejected::reason)
          .containsExactly(
              tuple(0L, "wrong-value"),
              tuple(2L, "missing-field"),
              tuple(3L, "invalid-json"),
              tuple(6L, "missing-field"));
      for (ArchiveReader.Rejected r : s.rejected) {
        String text = records.get((int) r.index());
        assertThat(r.text()).isEqualTo(text);
        assertThat(json.substring((int) r.start(), (int) r.end())).isEqualTo(text);
        assertThat(r.textCut()).isFalse();
        assertThat(r.detail()).isNotBlank();
      }
    }
  }

  @Test
  void undecodableBytesSetAsideTheirRecordOnly() throws Exception {
    byte[] good = (user(2, 20) + "\n").getBytes(StandardCharsets.UTF_8);
    byte[] bad = "{\"user\":{\"id\":3,\"screen_name\":\"ab\"}}\n".getBytes(StandardCharsets.UTF_8);
    bad[bad.length - 6] = (byte) 0xC3;
    bad[bad.length - 5] = (byte) 0x28;
    java.io.ByteArrayOutputStream all = new java.io.ByteArrayOutputStream();
    all.write(bad);
    all.write(good);
    byte[] bytes = all.toByteArray();
    Salvaged s = new Salvaged();
    assertThat(
            ArchiveReader.readSalvaging(
                () -> new ByteArrayInputStream(bytes), bytes.length, 1, 1 << 20, s.seen, s))
        .isEmpty();
    assertThat(s.seen.items).containsExactly("2", 20L);
    assertThat(s.rejected)
        .singleElement()
        .extracting(ArchiveReader.Rejected::reason)
        .isEqualTo("invalid-utf8");
  }

  @Test
  void aLongBadRecordIsKeptCutToABoundedLength() throws Exception {
    String json = "{\"user\":{\"id\":1,\"verified\":\"" + "y".repeat(5000) + "\"}}";
    Salvaged s = new Salvaged();
    assertThat(s.read(json, 1 << 20)).isEmpty();
    ArchiveReader.Rejected r = s.rejected.get(0);
    assertThat(r.textCut()).isTrue();
    assertThat(r.text()).hasSize(ArchiveReader.REJECTED_TEXT_BYTES);
    assertThat(r.end() - r.start()).isEqualTo(json.length());
  }

  @Test
  void aFileWhoseFramingIsLostIsStillRefusedWholeAndDeliversNothing() throws Exception {
    for (String broken :
        List.of(
            user(1, 10) + "\n" + user(2, 20).substring(0, 30), // truncated
            user(1, 10) + "\n{\"user\": {\"id\": 12, ]\n" + user(2, 20), // a brace never closed
            user(1, 10) + "}\n" + user(2, 20), // a brace too many
            user(1, 10) + "\n[" + user(2, 20) + "]")) { // not a sequence of objects
      for (long buffer : new long[] {1 << 20, 0}) {
        Salvaged s = new Salvaged();
        assertThat(s.read(broken, buffer)).as(broken).isPresent();
        assertThat(s.seen.items).as(broken).isEmpty();
        assertThat(s.rejected).as(broken).isEmpty();
      }
    }
  }

  @Test
  void weiboTimesDecodeLikeTheFormatter() {
    DateTimeFormatter f = DateTimeFormatter.ofPattern("EEE MMM dd HH:mm:ss Z yyyy", Locale.ROOT);
    Random random = new Random(7);
    for (int i = 0; i < 20_000; i++) {
      Instant t = Instant.ofEpochSecond(random.nextLong(-2_000_000_000L, 4_000_000_000L));
      ZoneOffset offset =
          ZoneOffset.ofTotalSeconds((random.nextInt(-18 * 4, 18 * 4 + 1) * 15 * 60));
      String text = f.format(t.atOffset(offset));
      assertThat(WeiboTime.parse(text)).as(text).isEqualTo(t.toEpochMilli());
    }
  }

  @Test
  void impossibleWeiboTimesAreRejected() {
    for (String bad :
        List.of(
            "Mon May 31 17:46:55 +0800 2011",
            "Tue Feb 30 17:46:55 +0800 2011",
            "Tue May 31 24:46:55 +0800 2011",
            "Tue Mai 31 17:46:55 +0800 2011",
            "2011-05-31T17:46:55+08:00")) {
      assertThatThrownBy(() -> WeiboTime.parse(bad))
          .as(bad)
          .isInstanceOf(DateTimeParseException.class);
    }
  }
}
