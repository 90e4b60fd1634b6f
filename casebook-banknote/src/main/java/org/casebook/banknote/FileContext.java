package org.casebook.banknote;

import java.time.ZoneId;
import java.util.Objects;

/**
 * What a file does not say about its records, supplied by whoever reads it (the agent's or the
 * import's options). FSN records carry no branch, operation or batch; 2014 files no branch at all.
 * Each value is used only where neither the file's content nor its name gives one.
 *
 * @param branch the reporting branch, or null
 * @param kind the device kind, or null (then the FSN code, else sorter)
 * @param operation the operation, or null (then the file name, else the kind's usual one)
 * @param device the device id overriding the file's machine id, or null
 * @param zone the time zone of FSN's local dates and times
 */
public record FileContext(
    String branch, DeviceKind kind, Operation operation, String device, ZoneId zone) {
  /** Chinese devices write local time. */
  public static final ZoneId DEFAULT_ZONE = ZoneId.of("Asia/Shanghai");

  public FileContext {
    Objects.requireNonNull(zone, "zone is null");
  }

  /** No defaults; FSN times in {@link #DEFAULT_ZONE}. */
  public static FileContext none() {
    return new FileContext(null, null, null, null, DEFAULT_ZONE);
  }

  public FileContext withBranch(String value) {
    return new FileContext(value, kind, operation, device, zone);
  }

  public FileContext withKind(DeviceKind value) {
    return new FileContext(branch, value, operation, device, zone);
  }
}
