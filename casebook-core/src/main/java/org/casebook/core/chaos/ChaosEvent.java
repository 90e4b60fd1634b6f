package org.casebook.core.chaos;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One action {@link RegionChaos} took: when (ms since the run started), on which region (for a
 * kill: the daemon's {@code host:port}), what came of it ({@code done}, {@code skipped: why},
 * {@code refused: HBase's answer} or {@code timed out …}) and how long it took. A kill that was
 * done also has its recovery time: from the kill until every region of the chaos tables was online
 * on a live RegionServer again, with as many RegionServers live as before; -1 otherwise.
 */
public record ChaosEvent(
    long atMillis,
    ChaosAction action,
    String table,
    String region,
    String outcome,
    long tookMillis,
    long recoveryMillis) {

  /** An event without a recovery time (every action but a kill). */
  public ChaosEvent(
      long atMillis,
      ChaosAction action,
      String table,
      String region,
      String outcome,
      long tookMillis) {
    this(atMillis, action, table, region, outcome, tookMillis, -1);
  }

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

  /** A kill done and recovered from: {@link #recoveryMillis()} holds the time. */
  public boolean recovered() {
    return recoveryMillis >= 0;
  }

  public Map<String, Object> toJson() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("at_ms", atMillis);
    m.put("action", action.label());
    m.put("table", table);
    m.put("region", region);
    m.put("outcome", outcome);
    m.put("took_ms", tookMillis);
    if (action.killsProcess()) {
      m.put("recovery_ms", recovered() ? recoveryMillis : null);
    }
    return m;
  }
}
