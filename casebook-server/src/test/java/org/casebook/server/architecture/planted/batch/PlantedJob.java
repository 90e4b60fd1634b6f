package org.casebook.server.architecture.planted.batch;

import java.io.IOException;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.mapreduce.Job;

/** Batch classes may run MapReduce over HBase. */
public final class PlantedJob {
  public Job job(Scan scan) throws IOException {
    return Job.getInstance();
  }
}
