package org.casebook.server;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.util.Bytes;
import org.casebook.core.HBaseRuntime;
import org.casebook.core.InvalidInputException;
import org.casebook.core.cli.ResultFiles;
import org.casebook.core.hotspot.HotspotReport;
import org.casebook.core.hotspot.KeyDesigns;
import org.casebook.core.schema.FamilySpec;
import org.casebook.core.schema.SchemaManager;
import org.casebook.core.schema.SplitPoints;
import org.casebook.core.schema.TableSpec;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code casebook hotspot}: how one day of writes spreads over regions under each key design. Split
 * points come from the previous day's keys (where HBase's own splitting would have put them) or
 * from the design's buckets; {@code --live} writes the day into real pre-split tables and reads the
 * region servers' write counters instead of computing the routing.
 */
@Command(
    name = "hotspot",
    mixinStandardHelpOptions = true,
    description =
        "Compare how key designs spread writes over regions (timestamp-first vs reversed/salted/hashed).")
final class HotspotCommand implements Callable<Integer> {
  @Option(
      names = "--regions",
      paramLabel = "N",
      defaultValue = "8",
      description = "Regions (and salt buckets) (default ${DEFAULT-VALUE}).")
  int regions;

  @Option(
      names = "--users",
      paramLabel = "N",
      defaultValue = "100000",
      description = "Distinct users (default ${DEFAULT-VALUE}).")
  int users;

  @Option(
      names = "--events",
      paramLabel = "N",
      defaultValue = "100000",
      description = "Writes per day (default ${DEFAULT-VALUE}).")
  int events;

  @Option(
      names = "--live",
      description = "Write into real pre-split tables and report the region servers' counters.")
  boolean live;

  @Option(
      names = "--table",
      paramLabel = "NS:TABLE",
      description = "Report the write spread of an existing table.")
  String table;

  private final CliContext context;

  HotspotCommand(CliContext context) {
    this.context = context;
  }

  @Override
  public Integer call() throws Exception {
    InvalidInputException.check(
        regions >= 2 && regions <= 256, "regions", "--regions must be 2..256");
    InvalidInputException.check(users >= 1, "users", "--users must be positive");
    InvalidInputException.check(
        events >= 100 && events <= 50_000_000, "events", "--events must be 100..50,000,000");
    if (table != null) {
      HBaseRuntime runtime = context.runtimeOnly();
      try (Admin admin = runtime.connection().getAdmin()) {
        TableName name = TableName.valueOf(table);
        if (!admin.tableExists(name)) {
          throw new org.casebook.core.NotFoundException("table " + table + " does not exist");
        }
        System.out.print(HotspotReport.render(List.of(HotspotReport.fromLiveTable(admin, name))));
      }
      return 0;
    }
    long day = 86_400_000L;
    long start = 1_767_225_600_000L; // 2026-01-01, any fixed day keeps runs comparable
    List<KeyDesigns.Event> yesterday = KeyDesigns.workload(users, events, start, 1);
    List<KeyDesigns.Event> today = KeyDesigns.workload(users, events, start + day, 2);
    List<HotspotReport.Result> results = new ArrayList<>();
    for (KeyDesigns.Design d : KeyDesigns.all(regions)) {
      SplitPoints splits = d.splitsFor(keys(d, yesterday), regions);
      List<byte[]> todayKeys = keys(d, today);
      HotspotReport.Result r =
          live
              ? writeAndMeasure(d, splits, todayKeys)
              : HotspotReport.analyse(d.name(), splits, todayKeys);
      results.add(
          new HotspotReport.Result(
              d.name() + " (" + d.shape() + ")", r.regions(), r.writes(), r.shares()));
    }
    System.out.println(
        "Writes of one day, routed to regions split on the day before ("
            + (live ? "measured on HBase" : "computed as HBase routes")
            + "):");
    System.out.println();
    System.out.print(HotspotReport.render(results));
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("regions", regions);
    json.put("users", users);
    json.put("events", events);
    json.put("live", live);
    List<Map<String, Object>> rows = new ArrayList<>();
    for (HotspotReport.Result r : results) {
      rows.add(
          Map.of(
              "design",
              r.design(),
              "maxShare",
              r.maxShare(),
              "skew",
              r.skew(),
              "regionsUsed",
              r.regionsUsed(),
              "shares",
              r.shares().stream().map(HotspotReport.RegionShare::share).toList()));
    }
    json.put("results", rows);
    System.out.println("\nJSON: " + ResultFiles.write("hotspot", json));
    return 0;
  }

  private HotspotReport.Result writeAndMeasure(
      KeyDesigns.Design d, SplitPoints splits, List<byte[]> keys)
      throws IOException, InterruptedException {
    HBaseRuntime runtime = context.runtimeOnly();
    TableName name = TableName.valueOf("casebook_hotspot", d.name().replace('-', '_'));
    SchemaManager schemas = new SchemaManager(runtime.connection());
    schemas.drop(name);
    schemas.ensure(new TableSpec(name, List.of(FamilySpec.of("f")), splits, d.shape()));
    byte[] f = Bytes.toBytes("f");
    try (BufferedMutator m = runtime.connection().getBufferedMutator(name)) {
      for (byte[] k : keys) {
        m.mutate(new Put(k).addColumn(f, f, new byte[16]));
      }
    }
    try (Admin admin = runtime.connection().getAdmin()) {
      // Region servers report their counters every heartbeat; wait until all writes are counted.
      long deadline = System.currentTimeMillis() + 60_000;
      HotspotReport.Result r = HotspotReport.fromLiveTable(admin, name);
      while (r.writes() < keys.size() && System.currentTimeMillis() < deadline) {
        Thread.sleep(500);
        r = HotspotReport.fromLiveTable(admin, name);
      }
      return r;
    } finally {
      schemas.drop(name);
    }
  }

  private static List<byte[]> keys(KeyDesigns.Design d, List<KeyDesigns.Event> events) {
    List<byte[]> out = new ArrayList<>(events.size());
    for (KeyDesigns.Event e : events) {
      out.add(d.key().apply(e));
    }
    return out;
  }
}
