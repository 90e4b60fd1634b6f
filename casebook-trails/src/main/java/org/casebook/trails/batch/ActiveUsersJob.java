package org.casebook.trails.batch;

import java.io.IOException;
import java.time.LocalDate;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.TextOutputFormat;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;
import org.casebook.core.batch.MapReduceJobs;
import org.casebook.trails.Behaviours;
import org.casebook.trails.TrailsRowCodec;

/**
 * The seed-000 task as a MapReduce job: among the users listed in a file, those who did all four
 * behaviours between two dates, with their trails, written as {@code uid<TAB>[events as JSON]}.
 *
 * <pre>
 * hadoop jar casebook-trails.jar org.casebook.trails.batch.ActiveUsersJob USERS_FILE FROM TO OUTPUT_DIR [NAMESPACE]
 * </pre>
 *
 * Runs with the LocalJobRunner next to embedded HBase, on YARN with a cluster's configuration.
 */
public final class ActiveUsersJob extends Configured implements Tool {
  /** What a run found. */
  public record Outcome(boolean succeeded, long users, long activeUsers, long events) {}

  @Override
  public int run(String[] args) throws Exception {
    if (args.length < 4 || args.length > 5) {
      System.err.println(
          "usage: ActiveUsersJob USERS_FILE FROM(YYYY-MM-DD) TO(YYYY-MM-DD) OUTPUT_DIR [NAMESPACE]");
      return 2;
    }
    String namespace = args.length == 5 ? args[4] : TrailsRowCodec.DEFAULT_NAMESPACE;
    Outcome o =
        run(
            getConf(),
            new Path(args[0]),
            LocalDate.parse(args[1]),
            LocalDate.parse(args[2]),
            new Path(args[3]),
            namespace,
            where -> System.err.println("casebook-trails active users: " + where),
            JobBehaviours.read(getConf(), namespace));
    System.out.printf("users %d, active %d, events %d%n", o.users(), o.activeUsers(), o.events());
    return o.succeeded() ? 0 : 1;
  }

  /**
   * Configures, submits and waits for the job; {@code announce} hears where it runs and its id. A
   * failed job is a {@link org.casebook.core.batch.BatchJobException} with the first task's error.
   */
  public static Outcome run(
      Configuration base,
      Path usersFile,
      LocalDate from,
      LocalDate to,
      Path output,
      String namespace,
      java.util.function.Consumer<String> announce,
      Behaviours behaviours)
      throws IOException, InterruptedException, ClassNotFoundException {
    Configuration conf = HBaseConfiguration.create(base);
    JobBehaviours.set(conf, behaviours);
    conf.set(UserRegionInputFormat.USERS_FILE, usersFile.toString());
    conf.set(UserRegionInputFormat.FROM, from.toString());
    conf.set(UserRegionInputFormat.TO, to.toString());
    conf.set(UserRegionInputFormat.NAMESPACE, namespace);
    Job job = Job.getInstance(conf, "casebook-trails active users " + from + ".." + to);
    job.setJarByClass(ActiveUsersJob.class);
    job.setInputFormatClass(UserRegionInputFormat.class);
    job.setMapperClass(ActiveUserMapper.class);
    job.setNumReduceTasks(0);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(Text.class);
    job.setOutputFormatClass(TextOutputFormat.class);
    FileOutputFormat.setOutputPath(job, output);
    // On a cluster: ships our, core's, HBase's and Jackson's jars and the JDK 17 task options.
    MapReduceJobs.prepare(job, ActiveUsersJob.class, org.casebook.core.key.KeyLayout.class);
    MapReduceJobs.run(job, announce, j -> {});
    org.apache.hadoop.mapreduce.Counters c = job.getCounters();
    return new Outcome(
        true,
        c.findCounter(ActiveUserMapper.Counters.USERS).getValue(),
        c.findCounter(ActiveUserMapper.Counters.ACTIVE_USERS).getValue(),
        c.findCounter(ActiveUserMapper.Counters.EVENTS).getValue());
  }

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(HBaseConfiguration.create(), new ActiveUsersJob(), args));
  }
}
