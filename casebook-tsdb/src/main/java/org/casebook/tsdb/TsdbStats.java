package org.casebook.tsdb;

import io.micrometer.core.instrument.Measurement;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code /api/stats} from the process's meters: every measurement of every meter the registry
 * holds, as OpenTSDB lists its own counters (a point per figure, tagged with the host). Nothing is
 * computed here; a gauge that no longer has a value (NaN) is left out.
 */
final class TsdbStats {
  private static final Logger LOG = LoggerFactory.getLogger(TsdbStats.class);

  private final MeterRegistry registry;
  private final Clock clock;
  private final String host;

  TsdbStats(MeterRegistry registry, Clock clock) {
    this.registry = registry;
    this.clock = clock;
    this.host = hostName();
  }

  List<StatPoint> points() {
    long now = clock.millis() / 1000;
    List<StatPoint> out = new ArrayList<>();
    for (Meter meter : registry.getMeters()) {
      List<Measurement> measurements = new ArrayList<>();
      meter.measure().forEach(measurements::add);
      Map<String, String> tags = new TreeMap<>();
      for (Tag t : meter.getId().getTags()) {
        tags.put(t.getKey(), t.getValue());
      }
      tags.put("host", host);
      for (Measurement m : measurements) {
        double v = m.getValue();
        if (Double.isNaN(v)) {
          continue;
        }
        String name = meter.getId().getName();
        if (measurements.size() > 1) {
          name += "." + m.getStatistic().getTagValueRepresentation();
        }
        out.add(new StatPoint(name, now, text(v), tags));
      }
    }
    out.sort(Comparator.comparing(StatPoint::metric).thenComparing(p -> p.tags().toString()));
    return out;
  }

  /** An integral figure as an integer, as OpenTSDB prints its counters; others as decimals. */
  private static String text(double v) {
    if (v == Math.rint(v) && !Double.isInfinite(v) && Math.abs(v) < 1e18) {
      return Long.toString((long) v);
    }
    return Double.toString(v);
  }

  private static String hostName() {
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      LOG.warn("the host name is unknown; /api/stats tags its figures host=unknown", e);
      return "unknown";
    }
  }
}
