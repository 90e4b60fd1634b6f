package org.casebook.frontier;

/**
 * How a channel orders a host's URLs (seed 002): first due, first out — a discovered URL is due
 * when put, a known one at its {@code refetchable_from_date} — or by a priority the crawler gives
 * with the URL (metadata {@code priority}, a whole number, highest first).
 */
public enum ChannelKind {
  FIFO,
  PRIORITY
}
