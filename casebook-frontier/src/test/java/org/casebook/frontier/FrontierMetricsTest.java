package org.casebook.frontier;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The crawl tag's bound, and the gauges of crawls past it summed under {@code other}. */
class FrontierMetricsTest {
  private static UrlInfo url(String crawl) {
    return new UrlInfo("http://h.example/", "h.example", crawl, Map.of());
  }

  @Test
  void crawlsPastTheBoundShareOneTag() {
    MeterRegistry meters = new SimpleMeterRegistry();
    FrontierMetrics metrics = new FrontierMetrics(meters);
    List<UrlInfo> out = new ArrayList<>();
    for (int i = 0; i < FrontierMetrics.MAX_CRAWL_TAGS + 5; i++) {
      out.add(url("crawl" + i));
    }
    out.add(url("crawl0"));
    metrics.countHandedOut(out);

    assertThat(meters.get(FrontierMetrics.HANDED_OUT).tag("crawl", "crawl0").counter().count())
        .isEqualTo(2);
    assertThat(meters.find(FrontierMetrics.HANDED_OUT).tag("crawl", "crawl100").counter()).isNull();
    assertThat(meters.get(FrontierMetrics.HANDED_OUT).tag("crawl", "other").counter().count())
        .isEqualTo(5);
    // One handed-out counter per tag: the crawls within the bound and other.
    assertThat(meters.find(FrontierMetrics.HANDED_OUT).counters())
        .hasSize(FrontierMetrics.MAX_CRAWL_TAGS + 1);
    assertThat(metrics.tag("crawl104")).isEqualTo("other");
  }

  @Test
  void gaugesSumTheCrawlsPastTheBoundAndDropDeletedCrawls() {
    MeterRegistry meters = new SimpleMeterRegistry();
    FrontierMetrics metrics = new FrontierMetrics(meters);
    List<QueueStats> stats = new ArrayList<>();
    for (int i = 0; i < FrontierMetrics.MAX_CRAWL_TAGS + 3; i++) {
      stats.add(new QueueStats("crawl" + i, 5, 2, 10, i, 0));
    }
    metrics.refreshGauges(stats);
    assertThat(meters.get(FrontierMetrics.IN_FLIGHT).tag("crawl", "crawl7").gauge().value())
        .isEqualTo(7);
    assertThat(meters.get(FrontierMetrics.IN_FLIGHT).tag("crawl", "other").gauge().value())
        .isEqualTo(100 + 101 + 102);
    assertThat(meters.get(FrontierMetrics.ACTIVE_QUEUES).tag("crawl", "other").gauge().value())
        .isEqualTo(6);

    metrics.refreshGauges(stats.subList(1, stats.size()));
    assertThat(meters.find(FrontierMetrics.QUEUED).tag("crawl", "crawl0").gauge()).isNull();
    assertThat(meters.get(FrontierMetrics.QUEUED).tag("crawl", "crawl1").gauge().value())
        .isEqualTo(10);
  }
}
