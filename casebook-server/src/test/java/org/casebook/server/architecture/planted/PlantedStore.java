package org.casebook.server.architecture.planted;

import org.apache.hadoop.hbase.client.Put;

/** A store may build HBase mutations. */
public final class PlantedStore {
  public Put put(byte[] row) {
    return new Put(row);
  }
}
