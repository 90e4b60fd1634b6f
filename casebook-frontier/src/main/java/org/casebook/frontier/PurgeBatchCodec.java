package org.casebook.frontier;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * The stored form of a {@link PurgeBatch} (one cell of the host row): id, armed (a byte), victim
 * count, then per victim its URL id, version, creation time, a flag byte (1: queued) and, when
 * queued, the priority.
 */
final class PurgeBatchCodec {
  private PurgeBatchCodec() {}

  static byte[] encode(PurgeBatch batch) {
    int size = 8 + 1 + 4;
    for (PurgeBatch.Victim v : batch.victims()) {
      size += FrontierKeys.URL_ID_BYTES + 8 + 8 + 1 + (v.queued() ? 8 : 0);
    }
    ByteBuffer b = ByteBuffer.allocate(size);
    b.putLong(batch.id()).put((byte) (batch.armed() ? 1 : 0)).putInt(batch.victims().size());
    for (PurgeBatch.Victim v : batch.victims()) {
      if (v.urlId().length != FrontierKeys.URL_ID_BYTES) {
        throw new IllegalArgumentException("a URL id has " + FrontierKeys.URL_ID_BYTES + " bytes");
      }
      b.put(v.urlId()).putLong(v.version()).putLong(v.createdMs());
      b.put((byte) (v.queued() ? 1 : 0));
      if (v.queued()) {
        b.putLong(v.priority());
      }
    }
    return b.array();
  }

  static PurgeBatch decode(byte[] bytes) {
    ByteBuffer b = ByteBuffer.wrap(bytes);
    long id = b.getLong();
    boolean armed = b.get() == 1;
    int n = b.getInt();
    if (n < 0 || n > bytes.length) {
      throw new IllegalArgumentException("not a purge batch: " + n + " victims");
    }
    List<PurgeBatch.Victim> victims = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      byte[] urlId = new byte[FrontierKeys.URL_ID_BYTES];
      b.get(urlId);
      long version = b.getLong();
      long created = b.getLong();
      boolean queued = b.get() == 1;
      victims.add(new PurgeBatch.Victim(urlId, version, queued ? b.getLong() : null, created));
    }
    if (b.hasRemaining()) {
      throw new IllegalArgumentException("not a purge batch: " + b.remaining() + " bytes left");
    }
    return new PurgeBatch(id, armed, victims);
  }
}
