package org.casebook.frontier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class PurgeBatchCodecTest {
  @Test
  void aBatchRoundTripsWithQueuedAndDoneVictims() {
    PurgeBatch batch =
        new PurgeBatch(
            -7,
            true,
            List.of(
                new PurgeBatch.Victim(FrontierKeys.urlId("http://a/1"), 11, -3L, 1_000),
                new PurgeBatch.Victim(FrontierKeys.urlId("http://a/2"), -12, null, 0)));
    PurgeBatch back = PurgeBatchCodec.decode(PurgeBatchCodec.encode(batch));
    assertThat(back.id()).isEqualTo(-7);
    assertThat(back.armed()).isTrue();
    assertThat(back.victims()).hasSize(2);
    for (int i = 0; i < 2; i++) {
      PurgeBatch.Victim v = batch.victims().get(i);
      PurgeBatch.Victim w = back.victims().get(i);
      assertThat(w.urlId()).isEqualTo(v.urlId());
      assertThat(w.version()).isEqualTo(v.version());
      assertThat(w.priority()).isEqualTo(v.priority());
      assertThat(w.createdMs()).isEqualTo(v.createdMs());
    }
    assertThat(PurgeBatchCodec.decode(PurgeBatchCodec.encode(new PurgeBatch(1, false, List.of()))))
        .satisfies(b -> assertThat(b.armed()).isFalse())
        .satisfies(b -> assertThat(b.victims()).isEmpty());
  }

  @Test
  void whatIsNotABatchIsRefused() {
    byte[] bytes =
        PurgeBatchCodec.encode(
            new PurgeBatch(
                1, true, List.of(new PurgeBatch.Victim(FrontierKeys.urlId("x"), 1, null, 2))));
    assertThatThrownBy(() -> PurgeBatchCodec.decode(Arrays.copyOf(bytes, bytes.length + 1)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(
            () ->
                PurgeBatchCodec.encode(
                    new PurgeBatch(
                        1, true, List.of(new PurgeBatch.Victim(new byte[3], 1, null, 2)))))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
