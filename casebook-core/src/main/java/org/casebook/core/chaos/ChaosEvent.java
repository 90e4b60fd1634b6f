package org.casebook.core.chaos;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One action {@link RegionChaos} took: when (ms since the run started), on which region, what came
 * of it ({@code done}, {@code skipped: why}, {@code refused: HBase's answer} or {@code timed out
 * …}) and how long it took.
 */
public record ChaosEvent(
    long atMillis,
    ChaosAction action,
    String table,
    String region,
    String outcome,
    long tookMillis) {

  public boolean done() {
    return outcome.equals("done");
  }

  /** The run found nothing the action could apply to (one RegionServer, no row to split at). */
  public boolean skipped() {
    return outcome.startsWith("skipped");
  }

  /** HBase did not finish the action within the run's action timeout (it may still). */
  public boolean timedOut() {
    return outcome.startsWith("timed out");
  }

  public Map<String, Object> toJson() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("at_ms", atMillis);
    m.put("action", action.label());
    m.put("table", table);
    m.put("region", region);
    m.put("outcome", outcome);
    m.put("took_ms", tookMillis);
    return m;
  }
}
