package org.casebook.core.key;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Objects;

/**
 * Stable hashes for salt buckets and hash prefixes; they must never change once data is written.
 */
public final class Hashing {
  private static final ThreadLocal<MessageDigest> MD5 =
      ThreadLocal.withInitial(
          () -> {
            try {
              return MessageDigest.getInstance("MD5");
            } catch (NoSuchAlgorithmException e) {
              throw new IllegalStateException("MD5 is required by every JRE", e);
            }
          });

  private Hashing() {}

  public static byte[] md5(byte[] source) {
    Objects.requireNonNull(source, "source is null");
    return MD5.get().digest(source);
  }

  public static byte[] md5Prefix(byte[] source, int length) {
    if (length < 1 || length > 16) {
      throw new IllegalArgumentException("hash prefix length must be 1..16: " + length);
    }
    return Arrays.copyOf(md5(source), length);
  }

  /**
   * A bucket in {@code [0, buckets)} from the first four MD5 bytes; buckets must fit in one byte.
   */
  public static int bucket(byte[] source, int buckets) {
    if (buckets < 1 || buckets > 256) {
      throw new IllegalArgumentException("buckets must be 1..256: " + buckets);
    }
    return region(source, buckets);
  }

  /**
   * A region number in {@code [0, regions)} from the first four MD5 bytes, for region identifiers.
   */
  public static int region(byte[] source, int regions) {
    if (regions < 1 || regions > 65536) {
      throw new IllegalArgumentException("regions must be 1..65536: " + regions);
    }
    byte[] h = md5(source);
    int v = ((h[0] & 0xFF) << 24) | ((h[1] & 0xFF) << 16) | ((h[2] & 0xFF) << 8) | (h[3] & 0xFF);
    return Integer.remainderUnsigned(v, regions);
  }
}
