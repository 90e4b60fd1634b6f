package org.casebook.frontier;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.CheckAndMutateResult;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Increment;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.coprocessor.ObserverContext;
import org.apache.hadoop.hbase.coprocessor.RegionCoprocessor;
import org.apache.hadoop.hbase.coprocessor.RegionCoprocessorEnvironment;
import org.apache.hadoop.hbase.coprocessor.RegionObserver;
import org.apache.hadoop.hbase.regionserver.MiniBatchOperationInProgress;
import org.casebook.core.HBaseRuntime;
import org.casebook.core.Platform;
import org.casebook.core.RuntimeSettings;
import org.casebook.core.testing.EmbeddedHBase;
import org.casebook.core.testing.TestIds;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A put whose counter write fails: not acknowledged OK while its counts may be missing, and when
 * the write is sent again, counted once. Faults come from a region observer on the test's hosts
 * table that fails a write carrying an Increment, before or after it is applied.
 */
@ExtendWith(EmbeddedHBase.class)
class FrontierCountersIT {
  /** Fails the next writes with an Increment on {@link #table}: before, then after applying. */
  public static final class CounterFaults implements RegionCoprocessor, RegionObserver {
    static volatile TableName table;
    static final AtomicInteger failBefore = new AtomicInteger();
    static final AtomicInteger failAfter = new AtomicInteger();
    static final AtomicInteger failed = new AtomicInteger();

    @Override
    public Optional<RegionObserver> getRegionObserver() {
      return Optional.of(this);
    }

    private static boolean counts(
        ObserverContext<RegionCoprocessorEnvironment> c, MiniBatchOperationInProgress<Mutation> b) {
      if (!c.getEnvironment().getRegionInfo().getTable().equals(table)) {
        return false;
      }
      for (int i = 0; i < b.size(); i++) {
        if (b.getOperation(i) instanceof Increment) {
          return true;
        }
      }
      return false;
    }

    @Override
    public void preBatchMutate(
        ObserverContext<RegionCoprocessorEnvironment> c, MiniBatchOperationInProgress<Mutation> b)
        throws IOException {
      if (counts(c, b) && failBefore.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
        failed.incrementAndGet();
        throw new DoNotRetryIOException("counter write refused before it is applied");
      }
    }

    @Override
    public void postBatchMutate(
        ObserverContext<RegionCoprocessorEnvironment> c, MiniBatchOperationInProgress<Mutation> b)
        throws IOException {
      if (counts(c, b) && failAfter.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
        failed.incrementAndGet();
        throw new DoNotRetryIOException("counter write applied, its answer lost");
      }
    }
  }

  /**
   * Fails the answer of the next check-and-mutates on {@link #table}, after applying them (or,
   * {@link #failBefore}, before; or holds the answer {@link #answerDelayMillis}, {@link
   * #slowAnswers}); with {@link #readsFailAfterLoss}, every read of the table fails from the first
   * answer lost on, until {@link #readsFailing} is cleared.
   */
  public static final class WriteAnswerFaults implements RegionCoprocessor, RegionObserver {
    static volatile TableName table;
    static final AtomicInteger failAfter = new AtomicInteger();
    static final AtomicInteger failBefore = new AtomicInteger();
    static final AtomicInteger failed = new AtomicInteger();
    static final AtomicInteger slowAnswers = new AtomicInteger();
    static volatile long answerDelayMillis;
    static volatile boolean readsFailAfterLoss;
    static volatile boolean readsFailing;

    @Override
    public void preGetOp(
        ObserverContext<RegionCoprocessorEnvironment> c, Get get, List<Cell> result)
        throws IOException {
      if (c.getEnvironment().getRegionInfo().getTable().equals(table) && readsFailing) {
        throw new DoNotRetryIOException("URL row unreadable");
      }
    }

    @Override
    public Optional<RegionObserver> getRegionObserver() {
      return Optional.of(this);
    }

    @Override
    public CheckAndMutateResult preCheckAndMutate(
        ObserverContext<RegionCoprocessorEnvironment> c,
        CheckAndMutate checkAndMutate,
        CheckAndMutateResult result)
        throws IOException {
      if (c.getEnvironment().getRegionInfo().getTable().equals(table)
          && failBefore.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
        failed.incrementAndGet();
        readsFailing = readsFailAfterLoss;
        throw new DoNotRetryIOException("URL write refused, not applied");
      }
      return result;
    }

    @Override
    public CheckAndMutateResult postCheckAndMutate(
        ObserverContext<RegionCoprocessorEnvironment> c,
        CheckAndMutate checkAndMutate,
        CheckAndMutateResult result)
        throws IOException {
      if (c.getEnvironment().getRegionInfo().getTable().equals(table)
          && result.isSuccess()
          && slowAnswers.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
        try {
          Thread.sleep(answerDelayMillis);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new java.io.InterruptedIOException("answer delay interrupted");
        }
      }
      if (c.getEnvironment().getRegionInfo().getTable().equals(table)
          && result.isSuccess()
          && failAfter.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
        failed.incrementAndGet();
        readsFailing = readsFailAfterLoss;
        throw new DoNotRetryIOException("URL write applied, its answer lost");
      }
      return result;
    }
  }

  /** Fails the answer of the next batches of Puts on {@link #table}, after applying them. */
  public static final class QueueWriteFaults implements RegionCoprocessor, RegionObserver {
    static volatile TableName table;
    static final AtomicInteger failAfter = new AtomicInteger();

    @Override
    public Optional<RegionObserver> getRegionObserver() {
      return Optional.of(this);
    }

    @Override
    public void postBatchMutate(
        ObserverContext<RegionCoprocessorEnvironment> c, MiniBatchOperationInProgress<Mutation> b)
        throws IOException {
      if (c.getEnvironment().getRegionInfo().getTable().equals(table)
          && b.size() > 0
          && b.getOperation(0) instanceof Put
          && failAfter.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
        throw new DoNotRetryIOException("queued rows stored, their answer lost");
      }
    }
  }

  @AfterEach
  void noFaults() {
    QueueWriteFaults.failAfter.set(0);
    CounterFaults.failBefore.set(0);
    CounterFaults.failAfter.set(0);
    CounterFaults.failed.set(0);
    WriteAnswerFaults.failAfter.set(0);
    WriteAnswerFaults.failBefore.set(0);
    WriteAnswerFaults.slowAnswers.set(0);
    WriteAnswerFaults.failed.set(0);
    WriteAnswerFaults.readsFailAfterLoss = false;
    WriteAnswerFaults.readsFailing = false;
  }

  /** A frontier whose hosts table fails counter writes as {@link CounterFaults} is told. */
  private static FrontierService frontier(HBaseRuntime runtime, Platform p) throws IOException {
    String ns = TestIds.unique("fk").replace('-', '_');
    FrontierService s = new FrontierService(p.contextFor("frontier"), ns);
    TableName hosts = FrontierSchema.in(ns).hosts();
    try (Admin admin = runtime.connection().getAdmin()) {
      admin.modifyTable(
          TableDescriptorBuilder.newBuilder(admin.getDescriptor(hosts))
              .setCoprocessor(CounterFaults.class.getName())
              .build());
    }
    CounterFaults.table = hosts;
    TableName known = FrontierSchema.in(ns).known();
    try (Admin admin = runtime.connection().getAdmin()) {
      admin.modifyTable(
          TableDescriptorBuilder.newBuilder(admin.getDescriptor(known))
              .setCoprocessor(WriteAnswerFaults.class.getName())
              .build());
    }
    WriteAnswerFaults.table = known;
    TableName urls = FrontierSchema.in(ns).urls();
    try (Admin admin = runtime.connection().getAdmin()) {
      admin.modifyTable(
          TableDescriptorBuilder.newBuilder(admin.getDescriptor(urls))
              .setCoprocessor(QueueWriteFaults.class.getName())
              .build());
    }
    QueueWriteFaults.table = urls;
    return s;
  }

  private static List<UrlItem> discovered(String crawl, int from, int n) {
    List<UrlItem> items = new ArrayList<>();
    for (int i = from; i < from + n; i++) {
      items.add(
          UrlItem.discovered(UrlInfo.of("http://a.example/" + i, crawl).withKey("a.example")));
    }
    return items;
  }

  /** Acknowledgements of the first {@code n} URLs of {@link #discovered} as fetched, done. */
  private static List<UrlItem> fetched(String crawl, int n) {
    List<UrlItem> items = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      items.add(UrlItem.known(UrlInfo.of("http://a.example/" + i, crawl).withKey("a.example"), 0));
    }
    return items;
  }

  @Test
  void aPutWhoseCountersAreNotWrittenIsNotAcknowledgedOk(HBaseRuntime runtime) throws Exception {
    try (Platform p = Platform.create(runtime, EmbeddedHBase.dataDir())) {
      FrontierService s = frontier(runtime, p);
      assertThat(s.put(discovered("c", 0, 2))).allMatch(a -> a.status() == PutStatus.OK);
      CounterFaults.failBefore.set(100);
      List<PutAck> acks = s.put(discovered("c", 2, 3));
      assertThat(CounterFaults.failed.get()).as("faults made").isPositive();
      assertThat(acks).as("counts not written").noneMatch(a -> a.status() == PutStatus.OK);

      CounterFaults.failBefore.set(0);
      awaitSettled(s);
      assertThat(s.stats("c", "").queued()).as("settled in the background").isEqualTo(5);
      // The client sends the put again: duplicates now, counted nowhere twice.
      assertThat(s.put(discovered("c", 2, 3))).allMatch(a -> a.status() == PutStatus.SKIPPED);
      assertThat(s.stats("c", "").queued()).isEqualTo(5);
      assertThat(s.stats("c", "a.example").queued()).isEqualTo(5);
    }
  }

  /**
   * The defect a RegionServer kill found: acknowledgements stored while their counter write failed
   * every attempt left the counters short for good, since the client's resend found the URLs done
   * already and had nothing to count.
   */
  @Test
  void acknowledgementsStoredWhileTheirCountersFailedAreCountedOnceLater(HBaseRuntime runtime)
      throws Exception {
    try (Platform p = Platform.create(runtime, EmbeddedHBase.dataDir())) {
      FrontierService s = frontier(runtime, p);
      assertThat(s.put(discovered("c", 0, 4))).allMatch(a -> a.status() == PutStatus.OK);
      List<UrlItem> acks = fetched("c", 4);
      CounterFaults.failBefore.set(1_000);
      assertThat(s.put(acks)).noneMatch(a -> a.status() == PutStatus.OK);
      assertThat(s.unsettledCounterWrites()).as("left to the settlement").isPositive();
      assertThat(s.stats("c", "").completed()).as("not counted while refused").isZero();

      CounterFaults.failBefore.set(0);
      awaitSettled(s);
      assertThat(s.stats("c", "").completed()).isEqualTo(4);
      assertThat(s.stats("c", "").queued()).isZero();
      // The client's resend changes nothing more.
      assertThat(s.put(acks)).allMatch(a -> a.status() == PutStatus.OK);
      assertThat(s.stats("c", "").completed()).isEqualTo(4);
      assertThat(s.stats("c", "a.example").completed()).isEqualTo(4);
      assertThat(s.stats("c", "a.example").queued()).isZero();
    }
  }

  /**
   * URL writes made while their answers were lost (a RegionServer killed after applying them) are
   * counted by this put, which reads their rows: before, the whole batch failed uncounted, and the
   * client's resend found the URLs done already, with nothing left to count.
   */
  @Test
  void urlWritesMadeWhileTheirAnswersWereLostAreCountedOnce(HBaseRuntime runtime) throws Exception {
    try (Platform p = Platform.create(runtime, EmbeddedHBase.dataDir())) {
      FrontierService s = frontier(runtime, p);
      assertThat(s.put(discovered("c", 0, 4))).allMatch(a -> a.status() == PutStatus.OK);
      List<UrlItem> acks = fetched("c", 4);
      WriteAnswerFaults.failAfter.set(2);
      assertThat(s.put(acks)).allMatch(a -> a.status() == PutStatus.OK);
      assertThat(WriteAnswerFaults.failed.get()).as("answers lost").isEqualTo(2);
      assertThat(s.stats("c", "").completed()).isEqualTo(4);
      assertThat(s.stats("c", "").queued()).isZero();
      assertThat(s.put(acks)).allMatch(a -> a.status() == PutStatus.OK);
      assertThat(s.stats("c", "a.example").completed()).isEqualTo(4);
      assertThat(s.stats("c", "a.example").queued()).isZero();
    }
  }

  /**
   * The defect the cluster kit's RegionServer kills found: URL writes made while their answers were
   * lost, and whose rows could not be read right after either, were counted by no one.
   */
  @Test
  void urlWritesMadeWhileTheirAnswersAndRowsWereOutOfReachAreCountedLater(HBaseRuntime runtime)
      throws Exception {
    try (HBaseRuntime overRpc = overRpc(runtime);
        Platform p = Platform.create(overRpc, EmbeddedHBase.dataDir())) {
      FrontierService s = frontier(runtime, p);
      assertThat(s.put(discovered("c", 0, 4))).allMatch(a -> a.status() == PutStatus.OK);
      List<UrlItem> acks = fetched("c", 4);
      WriteAnswerFaults.readsFailAfterLoss = true;
      WriteAnswerFaults.failAfter.set(2);
      List<PutAck> answered = s.put(acks);
      assertThat(WriteAnswerFaults.failed.get()).as("answers lost").isEqualTo(2);
      assertThat(answered).filteredOn(a -> a.status() == PutStatus.OK).hasSize(2);
      assertThat(s.unsettledCounterWrites()).as("left to the settlement").isPositive();
      assertThat(s.stats("c", "").completed()).as("the writes answered").isEqualTo(2);

      WriteAnswerFaults.readsFailing = false;
      awaitSettled(s);
      assertThat(s.stats("c", "").completed()).isEqualTo(4);
      assertThat(s.stats("c", "").queued()).isZero();
      // The client sends the two failed again: done already, counted nowhere twice.
      assertThat(s.put(acks)).allMatch(a -> a.status() == PutStatus.OK);
      assertThat(s.stats("c", "a.example").completed()).isEqualTo(4);
      assertThat(s.stats("c", "a.example").queued()).isZero();
    }
  }

  /**
   * A URL write refused before it was applied, whose row could not be read right after either: once
   * the settlement reads the row, the queued row written for it goes, and it is counted nowhere.
   * Before, that queued row stayed and was handed out once for a URL never stored.
   */
  @Test
  void aUrlWriteNotMadeLeavesNoQueuedRowOnceSettled(HBaseRuntime runtime) throws Exception {
    try (HBaseRuntime overRpc = overRpc(runtime);
        Platform p = Platform.create(overRpc, EmbeddedHBase.dataDir())) {
      FrontierService s = frontier(runtime, p);
      s.createChannel("c", ChannelKind.FIFO, 0);
      WriteAnswerFaults.readsFailAfterLoss = true;
      WriteAnswerFaults.failBefore.set(1);
      List<PutAck> answered = s.put(discovered("c", 0, 3));
      assertThat(WriteAnswerFaults.failed.get()).as("writes refused").isEqualTo(1);
      assertThat(answered).filteredOn(a -> a.status() == PutStatus.OK).hasSize(2);
      assertThat(s.unsettledCounterWrites()).as("left to the settlement").isPositive();

      WriteAnswerFaults.readsFailing = false;
      awaitSettled(s);
      assertThat(s.stats("c", "").queued()).isEqualTo(2);
      assertThat(s.getUrls(HandOutRequest.of("c", 0, 10)))
          .as("only the URLs stored are handed out")
          .hasSize(2);
    }
  }

  /**
   * The defect a 10-minute kit run found: a batch of URL writes whose time ran out with an answer
   * still out failed as a whole, so the writes made in it were counted by no one (the crawl's
   * counters one acknowledgement short).
   */
  @Test
  void urlWritesOfABatchWhoseTimeRanOutAreCountedOnce(HBaseRuntime runtime) throws Exception {
    try (HBaseRuntime overRpc =
            overRpc(runtime, Map.of(HConstants.HBASE_CLIENT_OPERATION_TIMEOUT, "1500"));
        Platform p = Platform.create(overRpc, EmbeddedHBase.dataDir())) {
      FrontierService s = frontier(runtime, p);
      assertThat(s.put(discovered("c", 0, 4))).allMatch(a -> a.status() == PutStatus.OK);
      List<UrlItem> acks = fetched("c", 4);
      WriteAnswerFaults.answerDelayMillis = 4_000;
      WriteAnswerFaults.slowAnswers.set(1);
      s.put(acks);
      assertThat(WriteAnswerFaults.slowAnswers.get()).as("an answer held").isZero();
      awaitSettled(s);
      // The client sends again what did not answer OK: done already, counted nowhere twice.
      assertThat(s.put(acks)).allMatch(a -> a.status() == PutStatus.OK);
      awaitSettled(s);
      assertThat(s.stats("c", "a.example").completed()).isEqualTo(4);
      assertThat(s.stats("c", "a.example").queued()).isZero();
      assertThat(s.stats("c", "").completed()).isEqualTo(4);
    }
  }

  /**
   * Queued rows stored while their put failed before writing the known rows (the kit's gRPC run
   * found four in flight after every URL was acknowledged): they go, and none is handed out.
   */
  @Test
  void queuedRowsOfAPutCutShortBeforeItsKnownWritesAreNeverHandedOut(HBaseRuntime runtime)
      throws Exception {
    try (Platform p = Platform.create(runtime, EmbeddedHBase.dataDir())) {
      FrontierService s = frontier(runtime, p);
      s.createChannel("c", ChannelKind.FIFO, 0);
      // A URL of the same host stored: the host is due, and its queue visited.
      assertThat(s.put(discovered("c", 0, 1))).allMatch(a -> a.status() == PutStatus.OK);
      QueueWriteFaults.failAfter.set(1);
      assertThat(s.put(discovered("c", 1, 3))).allMatch(a -> a.status() == PutStatus.FAIL);
      awaitSettled(s);
      assertThat(s.getUrls(HandOutRequest.of("c", 0, 10)))
          .as("only the URL stored")
          .extracting(UrlInfo::url)
          .containsExactly("http://a.example/0");
      assertThat(s.stats("c", "").inFlight()).isEqualTo(1);
      assertThat(s.stats("c", "").queued()).isEqualTo(1);
    }
  }

  private static HBaseRuntime overRpc(HBaseRuntime runtime) {
    return overRpc(runtime, Map.of());
  }

  /**
   * A runtime on the test's HBase over RPC, with few retries: a read refused in process goes
   * through the client's whole retry budget (minutes) instead of failing at once.
   */
  private static HBaseRuntime overRpc(HBaseRuntime runtime, Map<String, String> more) {
    Configuration conf = runtime.configuration();
    String zk =
        conf.get(HConstants.ZOOKEEPER_QUORUM)
            + ":"
            + conf.get(HConstants.ZOOKEEPER_CLIENT_PORT, "2181");
    return HBaseRuntime.start(
        RuntimeSettings.cluster(zk)
            .withOverrides(Map.of(HConstants.HBASE_CLIENT_RETRIES_NUMBER, "2"))
            .withOverrides(more));
  }

  static void awaitSettled(FrontierService s) throws InterruptedException {
    long deadline = System.nanoTime() + 60_000_000_000L;
    while (s.unsettledCounterWrites() > 0 && System.nanoTime() < deadline) {
      Thread.sleep(100);
    }
    assertThat(s.unsettledCounterWrites()).as("counter writes settled within 60 s").isZero();
  }

  @Test
  void aCounterWriteRefusedOnceIsSentAgainAndCounted(HBaseRuntime runtime) throws Exception {
    try (Platform p = Platform.create(runtime, EmbeddedHBase.dataDir())) {
      FrontierService s = frontier(runtime, p);
      CounterFaults.failBefore.set(1);
      List<PutAck> acks = s.put(discovered("c", 0, 5));
      assertThat(CounterFaults.failed.get()).as("faults made").isOne();
      assertThat(acks).allMatch(a -> a.status() == PutStatus.OK);
      assertThat(s.stats("c", "").queued()).as("URLs queued, counted").isEqualTo(5);
      assertThat(s.countUrls("c", "", "", false)).isEqualTo(5);
    }
  }

  @Test
  void aCounterWriteAppliedAndSentAgainCountsOnce(HBaseRuntime runtime) throws Exception {
    try (Platform p = Platform.create(runtime, EmbeddedHBase.dataDir())) {
      FrontierService s = frontier(runtime, p);
      CounterFaults.failAfter.set(1);
      List<PutAck> acks = s.put(discovered("c", 0, 5));
      assertThat(CounterFaults.failed.get()).as("faults made").isOne();
      assertThat(acks).allMatch(a -> a.status() == PutStatus.OK);
      assertThat(s.stats("c", "").queued()).as("URLs queued, counted once").isEqualTo(5);
      assertThat(s.stats("c", "a.example").queued()).isEqualTo(5);
    }
  }
}
