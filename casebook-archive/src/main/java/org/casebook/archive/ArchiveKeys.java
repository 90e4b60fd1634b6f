package org.casebook.archive;

import java.nio.charset.StandardCharsets;
import org.apache.hadoop.hbase.util.Bytes;
import org.casebook.core.key.Hashing;
import org.casebook.core.key.KeyBuilder;
import org.casebook.core.key.KeyReader;

/**
 * Seed 001's row-key rule, with the core toolkit:
 *
 * <pre>
 * user          region id (2 bytes) | uid (string)                          rule (2)
 * status        region id (2 bytes) | uid (string) | MAX - status id        rule (1), newest first
 * status_index  region id of the status id (2 bytes) | status id (long)     → uid
 * </pre>
 *
 * The region id is MD5(uid) mod R, and the tables are pre-split at region ids 1..R-1, so a user
 * and all of its statuses sit in exactly one pre-created region — and so does every HFile the
 * bulk load writes for it.
 */
final class ArchiveKeys {
  private ArchiveKeys() {}

  static int regionOfUser(String uid, int regions) {
    return Hashing.region(uid.getBytes(StandardCharsets.UTF_8), regions);
  }

  static int regionOfStatus(long statusId, int regions) {
    return Hashing.region(Bytes.toBytes(statusId), regions);
  }

  static byte[] user(String uid, int regions) {
    return KeyBuilder.create().addRegionId(regionOfUser(uid, regions), regions).addString(uid).build();
  }

  static byte[] status(String uid, long statusId, int regions) {
    return KeyBuilder.create().addRegionId(regionOfUser(uid, regions), regions).addString(uid)
        .addReverseTimestamp(statusId).build();
  }

  /** Start of a user's statuses (all of them share the user-row prefix). */
  static byte[] statusPrefix(String uid, int regions) {
    return user(uid, regions);
  }

  static long statusIdOf(byte[] statusRow) {
    KeyReader r = new KeyReader(statusRow);
    r.readRegionId();
    r.skipBytes();
    return r.readReverseTimestamp();
  }

  static byte[] statusIndex(long statusId, int regions) {
    return KeyBuilder.create().addRegionId(regionOfStatus(statusId, regions), regions).addLong(statusId).build();
  }

  /** The seed's case without the key rule: the bare user id (plus status id), no region prefix. */
  static byte[] plainUser(String uid) {
    return KeyBuilder.create().addString(uid).build();
  }

  static byte[] plainStatus(String uid, long statusId) {
    return KeyBuilder.create().addString(uid).addReverseTimestamp(statusId).build();
  }
}
