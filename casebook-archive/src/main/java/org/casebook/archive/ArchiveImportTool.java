package org.casebook.archive;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;
import org.casebook.core.Json;
import org.casebook.core.cli.Progress;

/**
 * The bulk load as a Hadoop tool, for {@code hadoop jar} on a cluster: input, scratch and
 * quarantine directories on any Hadoop file system (HDFS), the job on whatever
 * {@code mapreduce.framework.name} says (YARN), HBase from {@code hbase-site.xml} on the
 * classpath. Prints the same JSON report as {@code casebook archive import}.
 *
 * <pre>
 * hadoop jar casebook-archive.jar org.casebook.archive.ArchiveImportTool [-D k=v…] INPUT WORK QUARANTINE
 *     [--regions N] [--region-size-mb M] [--attempts A] [--namespace NS]
 * </pre>
 */
public final class ArchiveImportTool extends Configured implements Tool {
  private static final String USAGE = "usage: ArchiveImportTool INPUT WORK QUARANTINE [--regions N] [--region-size-mb M] "
      + "[--attempts A] [--namespace NS]";

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(HBaseConfiguration.create(), new ArchiveImportTool(), args));
  }

  @Override
  public int run(String[] args) throws Exception {
    List<String> positional = new ArrayList<>();
    Integer regions = null;
    long regionSizeMb = 10240;
    int attempts = 2;
    String namespace = ArchiveSchema.DEFAULT_NAMESPACE;
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      if (a.startsWith("--") && i + 1 >= args.length) {
        System.err.println(a + " needs a value\n" + USAGE);
        return 2;
      }
      switch (a) {
        case "--regions" -> regions = Integer.parseInt(args[++i]);
        case "--region-size-mb" -> regionSizeMb = Long.parseLong(args[++i]);
        case "--attempts" -> attempts = Integer.parseInt(args[++i]);
        case "--namespace" -> namespace = args[++i];
        default -> positional.add(a);
      }
    }
    if (positional.size() != 3) {
      System.err.println(USAGE + "\ngot: " + Arrays.toString(args));
      return 2;
    }
    Configuration conf = HBaseConfiguration.create(getConf());
    Path input = new Path(positional.get(0));
    Path work = new Path(positional.get(1));
    Path quarantine = new Path(positional.get(2));
    FileSystem fs = input.getFileSystem(conf);
    List<Path> files = new ArrayList<>();
    long bytes = 0;
    for (FileStatus s : fs.listStatus(input)) {
      String name = s.getPath().getName();
      // Hadoop's own bookkeeping files start with '_' (_SUCCESS, _logs).
      if (s.isFile() && ArchiveService.isInputName(name) && !name.startsWith("_")) {
        files.add(s.getPath());
        bytes += s.getLen();
      }
    }
    if (files.isEmpty()) {
      System.err.println("no input files in " + input);
      return 2;
    }
    try (Connection connection = ConnectionFactory.createConnection(conf); Admin admin = connection.getAdmin()) {
      SplitPlan plan = SplitPlan.compute(bytes, 1.5, regionSizeMb << 20, admin.getRegionServers().size());
      ArchiveService archive = new ArchiveService(connection, namespace);
      Layout layout = archive.prepare(new Layout(regions != null ? regions : plan.regions(), true), true);
      ArchiveBulkLoad.Outcome o;
      try (Progress progress = Progress.logging("bulk load", bytes, "bytes")) {
        o = ArchiveBulkLoad.run(connection, conf, ArchiveSchema.in(namespace), layout, files, work, quarantine, attempts,
            ArchiveBulkLoad.Partitioning.REGIONS, progress);
      }
      Map<String, Object> report = new LinkedHashMap<>();
      report.put("mode", "bulkload");
      report.put("regions", layout.regions());
      report.put("splitComputation", regions != null ? "--regions " + regions + " given" : plan.explain());
      report.put("filesLoaded", o.filesLoaded());
      report.put("filesSkipped", o.filesQuarantined());
      report.put("skipped", Quarantine.skipped(conf, quarantine, files));
      report.put("users", o.users());
      report.put("statuses", o.statuses());
      report.put("cells", o.cells());
      report.put("hfiles", o.hfiles());
      report.put("hfileSplits", o.hfileSplits());
      report.put("phaseSeconds", Map.of("job", o.jobSeconds(), "load", o.loadSeconds()));
      report.put("seconds", o.seconds());
      System.out.println(Json.writePretty(report));
    }
    return 0;
  }
}
