package org.casebook.frontier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.UnknownFieldSet;
import crawlercommons.urlfrontier.Urlfrontier.StringList;
import crawlercommons.urlfrontier.Urlfrontier.URLInfo;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The stored form of a URL is URLFrontier's {@code URLInfo} in protobuf's encoding: what the codec
 * writes, protobuf reads as the same message, and what protobuf wrote (rows of earlier versions),
 * the codec reads back; fields the protocol does not define are dropped, a corrupt value refused.
 */
class UrlInfoCodecTest {
  private static final UrlInfo FULL =
      new UrlInfo(
          "https://例え.jp/a?b=c#d",
          "例え.jp",
          "news",
          metadata(
              "priority", List.of("7"),
              "tags", List.of("a", "", "ü"),
              "", List.of("empty name"),
              "none", List.of()));

  private static Map<String, List<String>> metadata(Object... pairs) {
    Map<String, List<String>> m = new LinkedHashMap<>();
    for (int i = 0; i < pairs.length; i += 2) {
      @SuppressWarnings("unchecked") // the pairs above are (String, List<String>)
      List<String> values = (List<String>) pairs[i + 1];
      m.put((String) pairs[i], values);
    }
    return m;
  }

  private static URLInfo proto(UrlInfo info) {
    URLInfo.Builder b =
        URLInfo.newBuilder().setUrl(info.url()).setKey(info.key()).setCrawlID(info.crawlId());
    info.metadata()
        .forEach((k, v) -> b.putMetadata(k, StringList.newBuilder().addAllValues(v).build()));
    return b.build();
  }

  @Test
  void protobufReadsWhatTheCodecWrites() throws Exception {
    for (UrlInfo info :
        List.of(FULL, UrlInfo.of("http://a.example/", ""), new UrlInfo("", "", "", Map.of()))) {
      assertThat(URLInfo.parseFrom(UrlInfoCodec.encode(info))).isEqualTo(proto(info));
    }
  }

  @Test
  void theCodecReadsWhatProtobufWrote() {
    for (UrlInfo info :
        List.of(FULL, UrlInfo.of("http://a.example/", "c"), new UrlInfo("", "", "", Map.of()))) {
      assertThat(UrlInfoCodec.decode(proto(info).toByteArray())).isEqualTo(info);
    }
  }

  @Test
  void theSameMessageIsTheSameBytes() {
    URLInfo single =
        URLInfo.newBuilder()
            .setUrl("http://a.example/")
            .setKey("a.example")
            .setCrawlID("DEFAULT")
            .putMetadata("priority", StringList.newBuilder().addValues("3").build())
            .build();
    assertThat(UrlInfoCodec.encode(UrlInfoCodec.decode(single.toByteArray())))
        .isEqualTo(single.toByteArray());
  }

  @Test
  void unknownFieldsAreSkipped() {
    URLInfo withUnknown =
        proto(FULL).toBuilder()
            .setUnknownFields(
                UnknownFieldSet.newBuilder()
                    .addField(9, UnknownFieldSet.Field.newBuilder().addVarint(300).build())
                    .addField(
                        10,
                        UnknownFieldSet.Field.newBuilder()
                            .addLengthDelimited(com.google.protobuf.ByteString.copyFromUtf8("x"))
                            .build())
                    .addField(11, UnknownFieldSet.Field.newBuilder().addFixed32(1).build())
                    .addField(12, UnknownFieldSet.Field.newBuilder().addFixed64(1L).build())
                    .build())
            .build();
    assertThat(UrlInfoCodec.decode(withUnknown.toByteArray())).isEqualTo(FULL);
  }

  @Test
  void aCorruptValueIsAnIllegalState() {
    byte[] good = UrlInfoCodec.encode(FULL);
    assertThatThrownBy(() -> UrlInfoCodec.decode(Arrays.copyOf(good, good.length - 3)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("does not parse");
    assertThatThrownBy(() -> UrlInfoCodec.decode(new byte[] {(byte) 0x0F}))
        .isInstanceOf(IllegalStateException.class);
  }
}
