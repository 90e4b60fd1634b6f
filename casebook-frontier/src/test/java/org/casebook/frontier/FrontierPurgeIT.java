package org.casebook.frontier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Increment;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.casebook.core.HBaseRuntime;
import org.casebook.core.InvalidInputException;
import org.casebook.core.Platform;
import org.casebook.core.testing.EmbeddedHBase;
import org.casebook.core.testing.TestIds;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * PurgeURLs on embedded HBase with a clock moved by days: what goes and what stays, counters
 * against the rows, reruns, and purges cut short at each step then sent again.
 */
@ExtendWith(EmbeddedHBase.class)
class FrontierPurgeIT {
  private static final long DAY_MS = 86_400_000L;

  private static UrlItem discovered(String crawl, String url) {
    return UrlItem.discovered(UrlInfo.of(url, crawl));
  }

  private static UrlItem done(String crawl, String url) {
    return UrlItem.known(UrlInfo.of(url, crawl), 0);
  }

  /** What a crawl holds: its stats, its hosts' counters and every known URL with its status. */
  private static List<String> state(FrontierService s, String crawl) {
    List<String> out = new ArrayList<>();
    QueueStats st = s.stats(crawl, "");
    out.add(
        "crawl queued=" + st.queued() + " completed=" + st.completed() + " queues=" + st.queues());
    for (String host : List.of("a.example", "b.example", "c.example")) {
      QueueStats h = s.stats(crawl, host);
      out.add(host + " queued=" + h.queued() + " completed=" + h.completed());
    }
    for (KnownUrl u : s.listUrls(crawl, "", 0, 1000, "http", false)) {
      out.add(u.info().url() + " due=" + (u.refetchableFromDate() > 0) + " c=" + u.creationDate());
    }
    return out;
  }

  /** Counters (GetStats, CountURLs without filter) agree with a scan of the rows. */
  private static void assertCountersMatchRows(FrontierService s, String crawl) {
    List<KnownUrl> rows = s.listUrls(crawl, "", 0, 1000, "http", false);
    long queued = rows.stream().filter(u -> u.refetchableFromDate() > 0).count();
    QueueStats st = s.stats(crawl, "");
    assertThat(st.queued()).as("queued counter").isEqualTo(queued);
    assertThat(st.completed()).as("completed counter").isEqualTo(rows.size() - queued);
    assertThat(s.countUrls(crawl, "", null, false)).isEqualTo(rows.size());
    long hostsQueued = 0;
    long hostsCompleted = 0;
    for (String host : List.of("a.example", "b.example", "c.example")) {
      QueueStats h = s.stats(crawl, host);
      hostsQueued += h.queued();
      hostsCompleted += h.completed();
    }
    assertThat(hostsQueued).isEqualTo(st.queued());
    assertThat(hostsCompleted).isEqualTo(st.completed());
  }

  /**
   * Per host of {@code crawl}: old URLs queued and done, then (days later) new ones and an old one
   * rewritten as known, which keeps its creation date.
   */
  private static void fill(FrontierService s, FrontierServiceIT.MovableClock clock, String crawl) {
    List<UrlItem> old = new ArrayList<>();
    for (String host : List.of("a.example", "b.example", "c.example")) {
      for (int i = 0; i < 7; i++) {
        old.add(discovered(crawl, "http://" + host + "/old" + i));
      }
      old.add(done(crawl, "http://" + host + "/done"));
    }
    s.put(old);
    clock.millis.addAndGet(3 * DAY_MS);
    List<UrlItem> later = new ArrayList<>();
    for (String host : List.of("a.example", "b.example", "c.example")) {
      later.add(discovered(crawl, "http://" + host + "/new"));
      later.add(done(crawl, "http://" + host + "/old0"));
    }
    s.put(later);
  }

  @Test
  void purgeRemovesTheOldUrlsOfAQueueOrACrawlAndKeepsTheRest(HBaseRuntime runtime) {
    FrontierServiceIT.MovableClock clock = new FrontierServiceIT.MovableClock();
    try (Platform p = Platform.builder(runtime, EmbeddedHBase.dataDir()).clock(clock).build()) {
      FrontierService s = new FrontierService(p.contextFor("frontier"), ns());
      String crawl = TestIds.unique("purge");
      long before = clock.millis() / 1000;
      fill(s, clock, crawl);
      KnownUrl rewritten = s.urlStatus(crawl, "", "http://a.example/old0");
      assertThat(rewritten.refetchableFromDate()).as("done now").isZero();
      assertThat(rewritten.creationDate()).as("kept from its first put").isEqualTo(before);
      assertThat(s.urlStatus(crawl, "", "http://a.example/new").creationDate())
          .isEqualTo(before + 3 * 86_400);

      assertThat(s.purgeUrls(crawl, "a.example", 4)).as("nothing that old").isZero();
      assertThat(s.purgeUrls(crawl, "a.example", 2)).isEqualTo(8);
      assertThat(s.listUrls(crawl, "a.example", 0, 100, null, false))
          .extracting(u -> u.info().url())
          .containsExactly("http://a.example/new");
      assertThat(s.stats(crawl, "b.example").queued()).as("another queue untouched").isEqualTo(7);
      assertThat(s.stats(crawl, "a.example").queued()).isEqualTo(1);
      assertThat(s.stats(crawl, "a.example").completed()).isZero();
      assertCountersMatchRows(s, crawl);

      assertThat(s.purgeUrls(crawl, "", 2)).as("every other queue of the crawl").isEqualTo(16);
      assertThat(s.listUrls(crawl, "", 0, 100, null, false))
          .extracting(u -> u.info().url())
          .containsExactlyInAnyOrder(
              "http://a.example/new", "http://b.example/new", "http://c.example/new");
      assertCountersMatchRows(s, crawl);
      assertThat(s.stats(crawl, "").queues()).as("the queues stay").isEqualTo(3);
      List<String> after = state(s, crawl);
      assertThat(s.purgeUrls(crawl, "", 2)).as("a rerun").isZero();
      assertThat(state(s, crawl)).isEqualTo(after);

      List<String> handedOut = new ArrayList<>();
      s.getUrls(HandOutRequest.of(crawl, 0, 0)).forEach(u -> handedOut.add(u.url()));
      assertThat(handedOut)
          .containsExactlyInAnyOrder(
              "http://a.example/new", "http://b.example/new", "http://c.example/new");

      assertThat(s.purgeUrls(TestIds.unique("nocrawl"), "", 0)).isZero();
      assertThat(s.purgeUrls(crawl, "nohost.example", 0)).isZero();
      assertThatThrownBy(() -> s.purgeUrls(crawl, "", -1))
          .isInstanceOf(InvalidInputException.class)
          .satisfies(e -> assertThat(((InvalidInputException) e).field()).isEqualTo("days"));
      clock.millis.addAndGet(1000);
      assertThat(s.purgeUrls(crawl, "", 0)).as("0 days: everything stored before now").isEqualTo(3);
      assertCountersMatchRows(s, crawl);
      assertThat(s.hosts(crawl, org.casebook.core.page.PageRequest.first(10)).items())
          .allSatisfy(h -> assertThat(h.nextDue()).as("emptied hosts leave the schedule").isNull());
    }
  }

  @Test
  void theRetentionSettingPurgesTheCrawlsItCoversAndKeepsTheOthers(HBaseRuntime runtime) {
    FrontierServiceIT.MovableClock clock = new FrontierServiceIT.MovableClock();
    String kept = TestIds.unique("keep");
    String aged = TestIds.unique("aged");
    String other = TestIds.unique("other");
    try (Platform p =
        Platform.builder(runtime, EmbeddedHBase.dataDir())
            .clock(clock)
            .settings(
                org.casebook.core.settings.SettingSources.of(
                    java.util.Optional.empty(),
                    false,
                    java.util.Map.of(),
                    java.util.Map.of("frontier.retention", kept + "=20d," + aged + "=7d,*=1w")))
            .build()) {
      FrontierService s =
          new FrontierService(p.contextFor(new FrontierSystem().descriptor()), ns());
      assertThat(s.retention().toString()).isEqualTo(kept + "=20d," + aged + "=7d,*=7d");
      for (String crawl : List.of(kept, aged, other)) {
        fill(s, clock, crawl);
      }
      // Each fill moves the clock 3 days: now the old URLs of kept, aged and other are 12, 9 and
      // 6 days old, their new ones 9, 6 and 3.
      clock.millis.addAndGet(3 * DAY_MS);
      java.util.Map<String, Long> removed = s.purgeExpired();
      assertThat(removed).containsOnlyKeys(aged);
      assertThat(removed.get(aged)).as("old URLs, queued and done").isEqualTo(24);
      assertThat(s.listUrls(aged, "", 0, 100, null, false))
          .extracting(u -> u.info().url())
          .containsExactlyInAnyOrder(
              "http://a.example/new", "http://b.example/new", "http://c.example/new");
      assertThat(s.countUrls(other, "", null, false)).as("a week: nothing that old").isEqualTo(27);
      assertThat(s.countUrls(kept, "", null, false)).isEqualTo(27);
      assertCountersMatchRows(s, aged);
      assertCountersMatchRows(s, kept);
      assertThat(s.purgeExpired()).as("a rerun").isEmpty();
    }
    assertThatThrownBy(() -> FrontierRetention.parse("news=12h"))
        .hasMessageContaining("whole days");
    assertThatThrownBy(() -> FrontierRetention.parse("news=3d,news=4d"))
        .hasMessageContaining("two rules");
  }

  @Test
  void aPurgeCutShortAtAnyStepIsFinishedByTheNextAsIfNeverStopped(HBaseRuntime runtime) {
    FrontierServiceIT.MovableClock clock = new FrontierServiceIT.MovableClock();
    try (Platform p = Platform.builder(runtime, EmbeddedHBase.dataDir()).clock(clock).build()) {
      String ns = ns();
      FrontierService s = new FrontierService(p.contextFor("frontier"), ns);
      FrontierStore stores = FrontierStore.open(p.contextFor("frontier"), FrontierSchema.in(ns));
      String clean = TestIds.unique("clean");
      String cut = TestIds.unique("cut");
      clock.millis.set(clock.millis() / 1000 * 1000);
      fill(s, clock, clean);
      clock.millis.addAndGet(-3 * DAY_MS);
      fill(s, clock, cut);

      long removed = s.purgeUrls(clean, "", 2);
      assertThat(removed).isEqualTo(24);
      assertCountersMatchRows(s, clean);

      Channel ch = stores.channels().channel(cut).orElseThrow();
      long cutoff = clock.millis() - 2 * DAY_MS;
      Purges purges = s.purges();
      // a.example: cut after half the rows of an armed batch were deleted
      List<PurgeBatch.Victim> a = victims(stores, ch, "a.example", cutoff);
      PurgeBatch armedA = purges.begin(ch, FrontierKeys.hostId("a.example"), a).armed();
      purges.deleteRows(ch, FrontierKeys.hostId("a.example"), armedA.victims().subList(0, 4));
      // b.example: cut between taking the batch off the channel's counters and the host's
      byte[] b = FrontierKeys.hostId("b.example");
      PurgeBatch armedB = purges.begin(ch, b, victims(stores, ch, "b.example", cutoff)).armed();
      purges.deleteRows(ch, b, armedB.victims());
      Counts c = new Counts();
      armedB.victims().forEach(v -> c.queued(v.queued() ? -1 : 0));
      c.completed -= armedB.victims().stream().filter(v -> !v.queued()).count();
      stores.hosts().settlePurgeOnChannel(ch.id(), b, armedB.id(), Days.of(clock.millis()), c);
      // c.example: cut right after an unarmed batch was written
      byte[] cHost = FrontierKeys.hostId("c.example");
      stores
          .hosts()
          .beginPurge(
              ch.id(),
              cHost,
              PurgeBatchCodec.encode(
                  new PurgeBatch(42, false, victims(stores, ch, "c.example", cutoff))));

      assertThat(s.purgeUrls(cut, "", 2)).as("answered as by one that never stopped").isEqualTo(24);
      assertCountersMatchRows(s, cut);
      assertThat(state(s, cut)).isEqualTo(state(s, clean));
      for (String host : List.of("a.example", "b.example", "c.example")) {
        assertThat(stores.hosts().purgeBatch(ch.id(), FrontierKeys.hostId(host)))
            .as("no batch left on " + host)
            .isNull();
      }
      List<String> after = state(s, cut);
      assertThat(s.purgeUrls(cut, "", 2)).isZero();
      assertThat(state(s, cut)).isEqualTo(after);
    }
  }

  /**
   * HBase's clock held still: a host's next batch begun in the millisecond its last one settled is
   * kept (a delete marker of that millisecond would hide it and the purge skip its URLs).
   */
  @Test
  void aBatchBegunInTheMillisecondTheLastOneSettledIsKept(HBaseRuntime runtime) throws Exception {
    try (Platform p = Platform.builder(runtime, EmbeddedHBase.dataDir()).build()) {
      String ns = ns();
      FrontierService s = new FrontierService(p.contextFor("frontier"), ns);
      FrontierStore stores = FrontierStore.open(p.contextFor("frontier"), FrontierSchema.in(ns));
      String crawl = TestIds.unique("still");
      s.put(
          List.of(
              discovered(crawl, "http://a.example/1"), discovered(crawl, "http://a.example/2")));
      Channel ch = stores.channels().channel(crawl).orElseThrow();
      byte[] host = FrontierKeys.hostId("a.example");
      List<PurgeBatch.Victim> all = victims(stores, ch, "a.example", Long.MAX_VALUE);
      byte[] first = PurgeBatchCodec.encode(new PurgeBatch(1, false, all.subList(0, 1)));
      byte[] second = PurgeBatchCodec.encode(new PurgeBatch(2, false, all.subList(1, 2)));
      EmbeddedHBase.withClockHeldStill(
          () -> {
            assertThat(stores.hosts().beginPurge(ch.id(), host, first)).isTrue();
            assertThat(stores.hosts().replacePurge(ch.id(), host, first, null)).isTrue();
            assertThat(stores.hosts().purgeBatch(ch.id(), host)).as("none after it went").isNull();
            assertThat(stores.hosts().beginPurge(ch.id(), host, second)).isTrue();
            assertThat(stores.hosts().purgeBatch(ch.id(), host)).isEqualTo(second);
            byte[] armed = PurgeBatchCodec.encode(new PurgeBatch(2, true, all.subList(1, 2)));
            assertThat(stores.hosts().replacePurge(ch.id(), host, second, armed)).isTrue();
            assertThat(stores.hosts().settlePurgeOnHost(ch.id(), host, armed, 0, new Counts()))
                .isTrue();
            assertThat(stores.hosts().beginPurge(ch.id(), host, first)).isTrue();
            assertThat(stores.hosts().purgeBatch(ch.id(), host)).isEqualTo(first);
          });
    }
  }

  /**
   * HBase's clock held still: a batch cut short after the channel's counters took it, in the
   * millisecond the host's last batch was settled and its mark on the channel forgotten, is taken
   * off the channel once when the purge runs again.
   */
  @Test
  void aRerunTakesABatchOffTheChannelOnceAfterTheLastSettledInItsMillisecond(HBaseRuntime runtime)
      throws Exception {
    try (Platform p = Platform.builder(runtime, EmbeddedHBase.dataDir()).build()) {
      String ns = ns();
      FrontierService s = new FrontierService(p.contextFor("frontier"), ns);
      FrontierStore stores = FrontierStore.open(p.contextFor("frontier"), FrontierSchema.in(ns));
      String crawl = TestIds.unique("twice");
      s.put(
          List.of(
              discovered(crawl, "http://a.example/1"),
              discovered(crawl, "http://a.example/2"),
              discovered(crawl, "http://a.example/3")));
      Channel ch = stores.channels().channel(crawl).orElseThrow();
      byte[] host = FrontierKeys.hostId("a.example");
      List<PurgeBatch.Victim> all = victims(stores, ch, "a.example", Long.MAX_VALUE);
      Purges purges = s.purges();
      EmbeddedHBase.withClockHeldStill(
          () -> {
            PurgeBatch first = purges.begin(ch, host, all.subList(0, 1)).armed();
            assertThat(purges.settle(ch, host, first)).isEqualTo(1);
            PurgeBatch second = purges.begin(ch, host, all.subList(1, 2)).armed();
            purges.deleteRows(ch, host, second.victims());
            Counts c = new Counts();
            c.queued(-1);
            int day = Days.of(System.currentTimeMillis());
            assertThat(stores.hosts().settlePurgeOnChannel(ch.id(), host, second.id(), day, c))
                .isTrue();
            assertThat(purges.finishPending(ch, host)).as("the rerun finishes it").isEqualTo(1);
          });
      assertThat(s.stats(crawl, "").queued()).as("each batch taken off the channel once").isOne();
      assertCountersMatchRows(s, crawl);
    }
  }

  /**
   * A batch an earlier version took off the channel before a crash (its mark: the host id alone,
   * holding the batch id) is not taken off again when this version finishes it, and its mark goes.
   */
  @Test
  void aBatchAnEarlierVersionSettledOnTheChannelIsTakenOffOnce(HBaseRuntime runtime)
      throws Exception {
    try (Platform p = Platform.builder(runtime, EmbeddedHBase.dataDir()).build()) {
      String ns = ns();
      FrontierService s = new FrontierService(p.contextFor("frontier"), ns);
      FrontierStore stores = FrontierStore.open(p.contextFor("frontier"), FrontierSchema.in(ns));
      String crawl = TestIds.unique("earlier");
      s.put(
          List.of(
              discovered(crawl, "http://a.example/1"), discovered(crawl, "http://a.example/2")));
      Channel ch = stores.channels().channel(crawl).orElseThrow();
      byte[] host = FrontierKeys.hostId("a.example");
      Purges purges = s.purges();
      PurgeBatch batch =
          purges
              .begin(ch, host, victims(stores, ch, "a.example", Long.MAX_VALUE).subList(0, 1))
              .armed();
      purges.deleteRows(ch, host, batch.victims());
      byte[] row = FrontierKeys.CHANNEL.encode(ch.id());
      byte[] earlierMark = FrontierKeys.PURGE_SETTLED.prefix(host);
      try (Table t = runtime.connection().getTable(FrontierSchema.in(ns).hosts())) {
        t.increment(new Increment(row).addColumn(FrontierSchema.H, FrontierSchema.QUEUED, -1));
        t.put(new Put(row).addColumn(FrontierSchema.H, earlierMark, Bytes.toBytes(batch.id())));
        assertThat(purges.finishPending(ch, host)).isEqualTo(1);
        assertThat(t.get(new Get(row).addColumn(FrontierSchema.H, earlierMark)).isEmpty())
            .as("the earlier mark is forgotten")
            .isTrue();
      }
      assertThat(s.stats(crawl, "").queued()).isOne();
      assertCountersMatchRows(s, crawl);
    }
  }

  private static List<PurgeBatch.Victim> victims(
      FrontierStore stores, Channel ch, String host, long cutoffMs) {
    List<PurgeBatch.Victim> out = new ArrayList<>();
    for (KnownStore.Entry e :
        stores.known().page(ch.id(), FrontierKeys.hostId(host), null, Purges.BATCH)) {
      if (Purges.older(e.status().createdMs(), cutoffMs)) {
        UrlStatus st = e.status();
        out.add(new PurgeBatch.Victim(e.urlId(), st.version(), st.priority(), st.createdMs()));
      }
    }
    return out;
  }

  private static String ns() {
    return TestIds.unique("fpu").replace('-', '_');
  }
}
