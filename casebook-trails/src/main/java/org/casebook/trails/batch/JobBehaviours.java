package org.casebook.trails.batch;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.casebook.trails.Behaviours;
import org.casebook.trails.TrailsRowCodec;

/**
 * The behaviours a job's tasks know, carried as text in its configuration: the snapshot of the
 * client that submitted it, so every task reads declared behaviours' rows and lines as that client
 * does, without each task reading the registry.
 */
final class JobBehaviours {
  static final String KEY = "casebook.trails.behaviours";

  private JobBehaviours() {}

  static void set(Configuration conf, Behaviours behaviours) {
    conf.set(KEY, behaviours.encode());
  }

  static Behaviours of(Configuration conf) {
    return Behaviours.decode(conf.get(KEY));
  }

  /**
   * The registry of the trails tables in {@code namespace}: a job started from its command line.
   */
  static Behaviours read(Configuration conf, String namespace) throws IOException {
    try (Connection c = ConnectionFactory.createConnection(conf)) {
      return TrailsRowCodec.loadBehaviours(c, namespace);
    }
  }
}
