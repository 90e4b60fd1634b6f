package org.casebook.core;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;

/** Waits for futures and rethrows what the task threw, as it was thrown. */
public final class Futures {
  private Futures() {}

  /**
   * The task's result; its unchecked exception as is (a checked one wrapped in an {@link
   * IllegalStateException}); an interrupt while waiting as a {@link StorageException} of kind
   * interrupted, with the thread's flag set again.
   */
  public static <T> T await(Future<T> future) {
    try {
      return future.get();
    } catch (InterruptedException e) {
      future.cancel(true);
      throw StorageException.interrupted("wait for a task", e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException re) {
        throw re;
      }
      if (e.getCause() instanceof Error err) {
        throw err;
      }
      throw new IllegalStateException(e.getCause().getMessage(), e.getCause());
    }
  }
}
