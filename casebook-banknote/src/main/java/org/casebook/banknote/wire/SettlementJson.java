package org.casebook.banknote.wire;

import java.time.Instant;
import java.util.List;
import org.casebook.banknote.Settlement;
import org.casebook.core.Enums;

/**
 * A settlement as JSON ({@code GET /api/banknotes/settlement}): enums lower-case, times ISO-8601
 * UTC (null when absent), counts by operation as fields.
 *
 * <pre>
 * {"branch":"0110-001","day":"2026-02-24","zone":"Asia/Shanghai","status":"closed",
 *  "closedAt":"2026-02-24T16:10:02.114Z",
 *  "totals":{"deposit":120,"withdrawal":80,"sorting":0,"counting":0,"suspects":1,"total":200},
 *  "lines":[{"device":"ATM-7","deviceKind":"atm","currency":"CNY","denomination":100,
 *            "deposit":120,…,"total":200,"files":[{"source":"a.fsn","notes":200}]}],
 *  "devices":[{"device":"ATM-7",…,"declared":"…","files":[{"source":"a.fsn","notes":200,…}]}],
 *  "lateFiles":[],"hours":[{"hour":0,"notes":0,"suspects":0},…]}
 * </pre>
 */
public record SettlementJson(
    String branch,
    String day,
    String zone,
    String status,
    String closedAt,
    CountsJson totals,
    List<LineJson> lines,
    List<DeviceJson> devices,
    List<LateFileJson> lateFiles,
    List<Settlement.Hour> hours) {

  public record CountsJson(
      long deposit, long withdrawal, long sorting, long counting, long suspects, long total) {
    static CountsJson of(Settlement.Counts c) {
      return new CountsJson(
          c.deposit(), c.withdrawal(), c.sorting(), c.counting(), c.suspects(), c.total());
    }
  }

  public record LineJson(
      String device,
      String deviceKind,
      String currency,
      int denomination,
      long deposit,
      long withdrawal,
      long sorting,
      long counting,
      long suspects,
      long total,
      List<Settlement.FileCount> files) {}

  public record FileJson(
      String source,
      long notes,
      long suspects,
      int pieces,
      String firstStored,
      String lastStored,
      boolean late,
      boolean recounted) {}

  public record DeviceJson(
      String device,
      String deviceKind,
      CountsJson counts,
      String firstDeclared,
      String declared,
      List<FileJson> files) {}

  public record LateFileJson(
      String device,
      String source,
      long notes,
      String stored,
      String declared,
      boolean redeclared) {}

  /** What {@code POST …/delivered} answers. */
  public record DeliveryJson(
      String branch,
      String day,
      String device,
      String firstDeclared,
      String declared,
      boolean recorded,
      String status) {
    public static DeliveryJson of(Settlement.Delivery d) {
      return new DeliveryJson(
          d.branch(),
          d.day().toString(),
          d.device(),
          time(d.firstDeclared()),
          time(d.declared()),
          d.recorded(),
          Enums.label(d.status()));
    }
  }

  static SettlementJson of(Settlement s) {
    return new SettlementJson(
        s.branch(),
        s.day().toString(),
        s.zone().getId(),
        Enums.label(s.status()),
        time(s.closedAt()),
        CountsJson.of(s.totals()),
        s.lines().stream().map(SettlementJson::line).toList(),
        s.devices().stream().map(SettlementJson::device).toList(),
        s.lateFiles().stream()
            .map(
                l ->
                    new LateFileJson(
                        l.device(),
                        l.source(),
                        l.notes(),
                        time(l.stored()),
                        time(l.declared()),
                        l.redeclared()))
            .toList(),
        s.hours());
  }

  private static LineJson line(Settlement.Line l) {
    Settlement.Counts c = l.counts();
    return new LineJson(
        l.device(),
        Enums.label(l.deviceKind()),
        l.currency(),
        l.denomination(),
        c.deposit(),
        c.withdrawal(),
        c.sorting(),
        c.counting(),
        c.suspects(),
        c.total(),
        l.files());
  }

  private static DeviceJson device(Settlement.DeviceDay d) {
    return new DeviceJson(
        d.device(),
        d.deviceKind() == null ? null : Enums.label(d.deviceKind()),
        CountsJson.of(d.counts()),
        time(d.firstDeclared()),
        time(d.declared()),
        d.files().stream()
            .map(
                f ->
                    new FileJson(
                        f.source(),
                        f.notes(),
                        f.suspects(),
                        f.pieces(),
                        time(f.firstStored()),
                        time(f.lastStored()),
                        f.late(),
                        f.recounted()))
            .toList());
  }

  private static String time(Instant t) {
    return t == null ? null : t.toString();
  }
}
