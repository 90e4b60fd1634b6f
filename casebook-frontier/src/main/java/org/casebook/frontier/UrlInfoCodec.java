package org.casebook.frontier;

import com.google.protobuf.InvalidProtocolBufferException;
import crawlercommons.urlfrontier.Urlfrontier.StringList;
import crawlercommons.urlfrontier.Urlfrontier.URLInfo;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A URL as URLFrontier's {@code URLInfo} message: what the gRPC edge receives and sends, and the
 * stored form of a URL ({@code u:i} of a queued row, {@code k:i} of a known row) in protobuf's
 * binary encoding, written and read with the protocol's own classes, so a stored URL is the message
 * a crawler sent (less fields the protocol does not define). The one class beside the gRPC edge
 * that touches protobuf: it is the store's cell codec.
 */
public final class UrlInfoCodec {
  private UrlInfoCodec() {}

  /** {@code info} as the protocol's message. */
  public static URLInfo message(UrlInfo info) {
    URLInfo.Builder b =
        URLInfo.newBuilder().setUrl(info.url()).setKey(info.key()).setCrawlID(info.crawlId());
    info.metadata()
        .forEach(
            (name, values) ->
                b.putMetadata(name, StringList.newBuilder().addAllValues(values).build()));
    return b.build();
  }

  /** The protocol's message as a URL. */
  public static UrlInfo info(URLInfo m) {
    Map<String, List<String>> metadata = new LinkedHashMap<>();
    m.getMetadataMap().forEach((name, values) -> metadata.put(name, values.getValuesList()));
    return new UrlInfo(m.getUrl(), m.getKey(), m.getCrawlID(), metadata);
  }

  static byte[] encode(UrlInfo info) {
    return message(info).toByteArray();
  }

  /** Reads a stored URL; a value that is not one is a corrupt row. */
  static UrlInfo decode(byte[] stored) {
    try {
      return info(URLInfo.parseFrom(stored));
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalStateException("a stored URL does not parse", e);
    }
  }
}
