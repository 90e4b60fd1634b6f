package org.casebook.server.architecture.planted;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.mapreduce.Job;
import org.casebook.tsdb.TsdbConfig;

/** Breaks every rule on purpose: {@link ArchitectureRulesTest} must catch each. */
public final class PlantedService {
  public Put put(JsonNode body) {
    return new Put(body.get("row").asText().getBytes(java.nio.charset.StandardCharsets.UTF_8));
  }

  public Job job() throws IOException {
    return Job.getInstance();
  }

  public int tags() {
    return TsdbConfig.defaults().maxTags();
  }
}
