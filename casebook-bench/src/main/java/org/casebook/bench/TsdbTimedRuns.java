package org.casebook.bench;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import org.casebook.core.Json;

/**
 * One request of the long-range or tag_values step timed on one system: warm-up runs, then timed
 * runs, every answer handed to a check.
 *
 * @param latency the timed runs' latencies
 * @param lastAnswer the last answer, parsed
 */
record TsdbTimedRuns(Latency latency, JsonNode lastAnswer) {
  /** A request sent once per run. */
  interface Request {
    HttpResponse<byte[]> send() throws Exception;
  }

  /** Looks at each answer (after its run's time is taken). */
  interface Check {
    void answer(byte[] body) throws Exception;
  }

  /**
   * Sends {@code request} {@code warmUps + runs} times, timing the last {@code runs}; fails on an
   * answer other than 200. Prints a line with the percentiles under {@code label}.
   */
  static TsdbTimedRuns of(String label, int warmUps, int runs, Request request, Check check)
      throws Exception {
    Latency latency = new Latency();
    byte[] body = null;
    for (int i = 0; i < warmUps + runs; i++) {
      long s = System.nanoTime();
      HttpResponse<byte[]> r = request.send();
      if (i >= warmUps) {
        latency.recordNanos(System.nanoTime() - s);
      }
      if (r.statusCode() != 200) {
        throw new IllegalStateException(
            label
                + " answered "
                + r.statusCode()
                + ": "
                + new String(r.body(), StandardCharsets.UTF_8));
      }
      body = r.body();
      check.answer(body);
    }
    System.out.printf(
        Locale.ROOT,
        "%s: %d timed runs after %d warm-ups, p50 %.2f ms, p99 %.2f ms%n",
        label,
        runs,
        warmUps,
        latency.millis(50),
        latency.millis(99));
    return new TsdbTimedRuns(latency, Json.mapper().readTree(body));
  }
}
