package org.casebook.frontier;

import java.util.Arrays;

/** A host id as a map key (byte arrays compare by identity). */
record HostKey(byte[] bytes) {
  @Override
  public boolean equals(Object o) {
    return o instanceof HostKey h && Arrays.equals(bytes, h.bytes);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(bytes);
  }

  @Override
  public String toString() {
    return org.apache.hadoop.hbase.util.Bytes.toHex(bytes);
  }
}
