package org.casebook.archive.batch;

import java.nio.file.Files;
import java.util.concurrent.Callable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;
import org.casebook.archive.ArchiveService;
import org.casebook.archive.BadRecords;
import org.casebook.archive.ImportMode;
import org.casebook.archive.ImportReport;
import org.casebook.archive.ImportRequest;
import org.casebook.archive.Partitioning;
import org.casebook.core.ErrorKind;
import org.casebook.core.Json;
import org.casebook.core.LocalFiles;
import org.casebook.core.cli.Progress;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * The bulk load as a Hadoop tool, for {@code hadoop jar} on a cluster: input, scratch and
 * quarantine directories on any Hadoop file system (HDFS), the job on whatever {@code
 * mapreduce.framework.name} says (YARN), HBase from {@code hbase-site.xml} on the classpath. The
 * same import as {@code casebook archive import} ({@link ArchiveService#importFiles}), the same
 * JSON report.
 *
 * <pre>
 * hadoop jar casebook-archive.jar org.casebook.archive.batch.ArchiveImportTool [-D k=v…] INPUT WORK QUARANTINE
 *     [--regions N] [--region-size-mb M] [--attempts A] [--namespace NS]
 * </pre>
 */
@Command(
    name = "ArchiveImportTool",
    mixinStandardHelpOptions = true,
    description =
        "Bulk-load a directory of Weibo JSON into the archive tables (MapReduce on the configured "
            + "framework).")
public final class ArchiveImportTool extends Configured implements Tool, Callable<Integer> {
  @Parameters(
      index = "0",
      paramLabel = "INPUT",
      description = "Directory of JSON files on a Hadoop file system.")
  private String input;

  @Parameters(
      index = "1",
      paramLabel = "WORK",
      description = "Scratch directory for the job's HFiles.")
  private String work;

  @Parameters(
      index = "2",
      paramLabel = "QUARANTINE",
      description = "Where bad files are moved, with a reason file each.")
  private String quarantine;

  @Option(
      names = "--regions",
      paramLabel = "N",
      description = "Pre-split regions (default: computed from the input size).")
  private Integer regions;

  @Option(
      names = "--region-size-mb",
      paramLabel = "MB",
      defaultValue = "10240",
      description = "Region size for the computation (default ${DEFAULT-VALUE}).")
  private long regionSizeMb;

  @Option(
      names = "--attempts",
      paramLabel = "N",
      defaultValue = "2",
      description = "Reads of a file before it is quarantined (default ${DEFAULT-VALUE}).")
  private int attempts;

  @Option(
      names = "--bad-records",
      paramLabel = "WHAT",
      defaultValue = "quarantine-file",
      description =
          "A file with bad records: quarantine-file (the whole file) or salvage (load the good"
              + " records, set the bad ones aside in NAME.rejects) (default ${DEFAULT-VALUE}).")
  private String badRecords;

  @Option(
      names = "--namespace",
      paramLabel = "NS",
      defaultValue = "archive",
      description = "HBase namespace of the archive tables (default ${DEFAULT-VALUE}).")
  private String namespace;

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(HBaseConfiguration.create(), new ArchiveImportTool(), args));
  }

  /**
   * Called by {@link ToolRunner} with the generic options ({@code -D}, {@code -conf}) already
   * applied.
   */
  @Override
  public int run(String[] args) {
    return new CommandLine(this)
        .setExecutionExceptionHandler(
            (e, cmd, parsed) -> {
              cmd.getErr().println(e.getMessage());
              return ErrorKind.of(e).exitCode();
            })
        .execute(args);
  }

  @Override
  public Integer call() throws Exception {
    Configuration conf = HBaseConfiguration.create(getConf());
    ImportRequest request =
        new ImportRequest(
            input,
            ImportMode.BULKLOAD,
            regions,
            regionSizeMb,
            quarantine,
            work,
            attempts,
            Partitioning.REGIONS,
            BadRecords.parse(badRecords, "bad-records"),
            false);
    java.nio.file.Path scratch = Files.createTempDirectory("archive-import-tool");
    try (Connection connection = ConnectionFactory.createConnection(conf)) {
      ArchiveService archive =
          ArchiveService.inNamespace(new ToolContext(connection, conf, scratch), namespace);
      ImportReport report;
      try (Progress progress =
          Progress.logging("bulk load", archive.inputBytes(request), "bytes")) {
        report = archive.importFiles(request, progress);
      }
      System.out.println(Json.writePretty(report));
    } finally {
      LocalFiles.deleteRecursively(scratch);
    }
    return 0;
  }
}
