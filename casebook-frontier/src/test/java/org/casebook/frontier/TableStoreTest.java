package org.casebook.frontier;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InterruptedIOException;
import java.net.SocketTimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class TableStoreTest {
  @AfterEach
  void clearInterrupt() {
    Thread.interrupted();
  }

  /** HBase reports an RPC out of time as a SocketTimeoutException, an InterruptedIOException. */
  @Test
  void aCallThatTimedOutLeavesTheThreadUninterrupted() {
    TableStore.storage("read", new SocketTimeoutException("callTimeout=10000"));
    assertThat(Thread.currentThread().isInterrupted()).isFalse();
  }

  @Test
  void anInterruptedCallStaysAnInterrupt() {
    TableStore.storage("read", new InterruptedIOException("interrupted"));
    assertThat(Thread.currentThread().isInterrupted()).isTrue();
  }
}
