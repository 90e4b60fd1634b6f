package org.casebook.frontier;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.util.List;
import org.casebook.core.HBaseRuntime;
import org.casebook.core.Platform;
import org.casebook.core.SystemContext;
import org.casebook.core.testing.EmbeddedHBase;
import org.casebook.core.testing.TestIds;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Interleavings of the due index's writers played step by step on the stores: a queue with a URL
 * due is found by the next GetURLs after each of them.
 */
@ExtendWith(EmbeddedHBase.class)
class FrontierDueIndexIT {
  private static final String CRAWL = "due";
  private static final String KEY = "example.com";
  private static final byte[] HOST = FrontierKeys.hostId(KEY);

  /** A frontier with one URL queued on {@link #KEY}, and its stores opened beside it. */
  private record Setup(
      FrontierService service, FrontierStore stores, Schedule schedule, Channel ch) {
    static Setup of(Platform p) {
      String ns = TestIds.unique("fd").replace('-', '_');
      SystemContext context = p.contextFor("frontier");
      FrontierService s = new FrontierService(context, ns);
      s.createChannel(CRAWL, ChannelKind.FIFO, 0);
      assertThat(s.put(List.of(UrlItem.discovered(UrlInfo.of("http://" + KEY + "/a", CRAWL)))))
          .allMatch(a -> a.status() == PutStatus.OK);
      FrontierStore stores = FrontierStore.open(context, FrontierSchema.in(ns));
      Channel ch = new Channels(stores.channels(), Clock.systemUTC()).find(CRAWL).orElseThrow();
      return new Setup(s, stores, new Schedule(stores.hosts(), stores.due()), ch);
    }

    HostRow host() {
      return stores.hosts().host(ch.id(), HOST).orElseThrow();
    }

    List<DueHost> dueRows() {
      return stores.due().due(ch.id(), Long.MAX_VALUE - 1, null, 100);
    }

    List<UrlInfo> getUrls() {
      return service.getUrls(HandOutRequest.of(CRAWL, 0, 0));
    }
  }

  @Test
  void aClaimRetiringItsRowAfterAPutBroughtTheHostBackToThatTimeLeavesThePutsRow(
      HBaseRuntime runtime) {
    try (Platform p = Platform.create(runtime, EmbeddedHBase.dataDir())) {
      Setup s = Setup.of(p);
      HostRow read = s.host();
      DueStamp first = read.stamp();
      long t = first.due();
      // A claimant writes its row and claims the host ...
      DueStamp claimed = DueStamp.at(t + 60_000);
      s.stores.due().put(s.ch.id(), List.of(DueHost.of(claimed, HOST, first)));
      assertThat(
              s.stores
                  .hosts()
                  .decide(s.ch.id(), List.of(new HostChange.Claim(read, t, claimed)), "claim"))
          .containsExactly(true);
      // ... a put begun in the same millisecond as the first brings the host back to that time ...
      assertThat(s.schedule.bringForward(s.ch, List.of(HOST), List.of(KEY), List.of(t)))
          .containsExactly(true);
      assertThat(s.host().next()).isEqualTo(t);
      // ... and only then does the claimant delete the row it claimed from.
      s.stores.due().delete(s.ch.id(), List.of(DueHost.of(first, HOST, null)));

      assertThat(s.dueRows()).anyMatch(d -> d.isRowOf(s.host().stamp()));
      assertThat(s.getUrls()).extracting(UrlInfo::url).containsExactly("http://" + KEY + "/a");
    }
  }

  @Test
  void aRowWhoseWriterMayStillMakeItCurrentStaysAndOneLeftOverGoes(HBaseRuntime runtime) {
    try (Platform p = Platform.create(runtime, EmbeddedHBase.dataDir())) {
      Setup s = Setup.of(p);
      long now = System.currentTimeMillis();
      // The host waits a minute (as after a reschedule) ...
      assertThat(s.schedule.move(s.ch, HOST, s.host().stamp(), now + 60_000, "wait")).isTrue();
      DueStamp waiting = s.host().stamp();
      // ... when a put writes its row for now, before its check-and-mutate on that stamp, and a
      // writer that lost its race to another left a row for now too.
      DueStamp putting = DueStamp.at(now - 1);
      DueHost pending = DueHost.of(putting, HOST, waiting);
      DueHost lost = DueHost.of(DueStamp.at(now - 1), HOST, DueStamp.at(now - 5));
      s.stores.due().put(s.ch.id(), List.of(pending, lost));

      assertThat(s.getUrls()).as("not due yet").isEmpty();
      assertThat(s.dueRows())
          .anyMatch(d -> d.isRowOf(putting))
          .noneMatch(d -> d.token() == lost.token());

      assertThat(
              s.stores
                  .hosts()
                  .decide(
                      s.ch.id(),
                      List.of(new HostChange.Move(HOST, waiting, putting, KEY)),
                      "schedule"))
          .containsExactly(true);
      assertThat(s.getUrls()).extracting(UrlInfo::url).containsExactly("http://" + KEY + "/a");
    }
  }

  @Test
  void aRemovalOnAStampReplacedSinceFailsAndAPutBringsAnUnscheduledHostBack(HBaseRuntime runtime) {
    try (Platform p = Platform.create(runtime, EmbeddedHBase.dataDir())) {
      Setup s = Setup.of(p);
      DueStamp before = s.host().stamp();
      // Taken out of the index once: a second removal on the stamp read before finds it replaced.
      assertThat(s.schedule.remove(s.ch, HOST, before, "unschedule")).isTrue();
      assertThat(s.host().next()).isNull();
      assertThat(s.schedule.remove(s.ch, HOST, before, "unschedule")).isFalse();
      long now = System.currentTimeMillis();
      assertThat(s.schedule.bringForward(s.ch, List.of(HOST), List.of(KEY), List.of(now)))
          .containsExactly(true);
      assertThat(s.dueRows()).hasSize(1).allMatch(d -> d.isRowOf(s.host().stamp()));
      assertThat(s.getUrls()).extracting(UrlInfo::url).containsExactly("http://" + KEY + "/a");
    }
  }
}
