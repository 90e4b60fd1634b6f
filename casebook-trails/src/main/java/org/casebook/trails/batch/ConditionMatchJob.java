package org.casebook.trails.batch;

import java.io.IOException;
import java.time.LocalDate;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.TextOutputFormat;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;
import org.casebook.core.batch.MapReduceJobs;
import org.casebook.trails.Behaviours;
import org.casebook.trails.TrailCondition;
import org.casebook.trails.TrailQuery;
import org.casebook.trails.TrailsRowCodec;

/**
 * Users whose events between two dates satisfy a condition ({@link TrailCondition}), over every
 * user of the events table, as a MapReduce job: one map task per region ({@link
 * EventsRegionInputFormat}), the condition's text in the job configuration, the matching uids
 * written one per line.
 *
 * <pre>
 * hadoop jar casebook-trails.jar org.casebook.trails.batch.ConditionMatchJob QUERY FROM TO OUTPUT_DIR [NAMESPACE]
 * </pre>
 *
 * Runs with the LocalJobRunner next to embedded HBase, on YARN with a cluster's configuration.
 */
public final class ConditionMatchJob extends Configured implements Tool {
  /** The configuration key of the condition's text. */
  static final String CONDITION = "casebook.trails.condition";

  /** What a run found. */
  public record Outcome(long users, long matchedUsers, long events) {}

  @Override
  public int run(String[] args) throws Exception {
    if (args.length < 4 || args.length > 5) {
      System.err.println(
          "usage: ConditionMatchJob QUERY FROM(YYYY-MM-DD) TO(YYYY-MM-DD) OUTPUT_DIR [NAMESPACE]");
      return 2;
    }
    String namespace = args.length == 5 ? args[4] : TrailsRowCodec.DEFAULT_NAMESPACE;
    Behaviours behaviours = JobBehaviours.read(getConf(), namespace);
    TrailCondition condition = TrailCondition.parse(args[0], behaviours);
    LocalDate from = LocalDate.parse(args[1]);
    LocalDate to = LocalDate.parse(args[2]);
    TrailQuery.checkRange(from, to);
    Outcome o =
        run(
            getConf(),
            condition,
            from,
            to,
            new Path(args[3]),
            namespace,
            where -> System.err.println("casebook-trails match: " + where),
            behaviours);
    System.out.printf("users %d, matched %d, events %d%n", o.users(), o.matchedUsers(), o.events());
    return 0;
  }

  /**
   * Configures, submits and waits for the job; {@code announce} hears where it runs and its id. A
   * failed job is a {@link org.casebook.core.batch.BatchJobException} with the first task's error.
   */
  public static Outcome run(
      Configuration base,
      TrailCondition condition,
      LocalDate from,
      LocalDate to,
      Path output,
      String namespace,
      Consumer<String> announce,
      Behaviours behaviours)
      throws IOException, InterruptedException, ClassNotFoundException {
    Configuration conf = HBaseConfiguration.create(base);
    JobBehaviours.set(conf, behaviours);
    conf.set(CONDITION, condition.text());
    conf.set(UserRegionInputFormat.FROM, from.toString());
    conf.set(UserRegionInputFormat.TO, to.toString());
    conf.set(UserRegionInputFormat.NAMESPACE, namespace);
    Job job = Job.getInstance(conf, "casebook-trails match " + from + ".." + to);
    job.setJarByClass(ConditionMatchJob.class);
    job.setInputFormatClass(EventsRegionInputFormat.class);
    job.setMapperClass(ConditionMatchMapper.class);
    job.setNumReduceTasks(0);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(NullWritable.class);
    job.setOutputFormatClass(TextOutputFormat.class);
    FileOutputFormat.setOutputPath(job, output);
    // On a cluster: ships our, core's, HBase's and Jackson's jars and the JDK 17 task options.
    MapReduceJobs.prepare(job, ConditionMatchJob.class, org.casebook.core.key.KeyLayout.class);
    MapReduceJobs.run(job, announce, j -> {});
    org.apache.hadoop.mapreduce.Counters c = job.getCounters();
    return new Outcome(
        c.findCounter(ConditionMatchMapper.Counters.USERS).getValue(),
        c.findCounter(ConditionMatchMapper.Counters.MATCHED_USERS).getValue(),
        c.findCounter(ConditionMatchMapper.Counters.EVENTS).getValue());
  }

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(HBaseConfiguration.create(), new ConditionMatchJob(), args));
  }
}
