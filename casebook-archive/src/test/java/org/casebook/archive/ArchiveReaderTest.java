package org.casebook.archive;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ArchiveReaderTest {
  private static ArchiveReader.Source of(String json) {
    return () -> new ByteArrayInputStream(json.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void validFileValidatesAndStreamsUserThenStatuses() throws Exception {
    String json = "{\"user\":{\"id\":\"1000000001\",\"screen_name\":\"a\"},\"statuses\":[{\"id\":5,\"text\":\"hi\","
        + "\"created_at\":\"Sat Jan 05 12:00:01 +0800 2013\"}]}\n";
    assertThat(ArchiveReader.validate(of(json), 2)).isEmpty();
    List<Object> seen = new ArrayList<>();
    ArchiveReader.read(of(json).open(), new ArchiveReader.Sink() {
      @Override
      public void user(UserRecord user) {
        seen.add(user.uid());
      }

      @Override
      public void status(StatusRecord status) {
        seen.add(status.id());
      }
    });
    assertThat(seen).containsExactly("1000000001", 5L);
  }

  @Test
  void idsBeyondTheLongRangeMakeTheFileBadInsteadOfCrashing() {
    String json = "{\"user\":{\"id\":\"9999999999999999999\"}}";
    assertThat(ArchiveReader.validate(of(json), 1)).hasValueSatisfying(r -> assertThat(r).contains("out of range"));
  }

  @Test
  void everyAttemptIsMadeAndTheLastReasonKept() {
    int[] opened = {0};
    ArchiveReader.Source broken = () -> {
      opened[0]++;
      return new ByteArrayInputStream("{\"user\":".getBytes(StandardCharsets.UTF_8));
    };
    assertThat(ArchiveReader.validate(broken, 3)).hasValueSatisfying(r -> assertThat(r).startsWith("truncated"));
    assertThat(opened[0]).isEqualTo(3);
  }
}
