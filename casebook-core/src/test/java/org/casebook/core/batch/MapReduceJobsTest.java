package org.casebook.core.batch;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapred.JobConf;
import org.junit.jupiter.api.Test;

class MapReduceJobsTest {
  @Test
  void localTuningReplacesHadoopDefaultsButNotWhatTheUserSet() {
    new JobConf(); // loads mapred-default.xml into every Configuration, as any job run does
    Configuration conf = new Configuration();
    assertThat(conf.get("mapreduce.task.io.sort.mb"))
        .as("Hadoop's default is visible")
        .isEqualTo("100");
    MapReduceJobs.setUnlessConfigured(conf, "mapreduce.task.io.sort.mb", "32");
    assertThat(conf.get("mapreduce.task.io.sort.mb")).isEqualTo("32");

    Configuration user = new Configuration();
    user.set("mapreduce.task.io.sort.mb", "64");
    Configuration copy = new Configuration(user);
    MapReduceJobs.setUnlessConfigured(copy, "mapreduce.task.io.sort.mb", "32");
    assertThat(copy.get("mapreduce.task.io.sort.mb")).isEqualTo("64");

    Configuration empty = new Configuration(false);
    MapReduceJobs.setUnlessConfigured(empty, "casebook.test.key", "x");
    assertThat(empty.get("casebook.test.key")).isEqualTo("x");
  }

  @Test
  void saysWhereJobsRun() {
    Configuration local = new Configuration(false);
    assertThat(MapReduceJobs.isLocal(local)).isTrue();
    assertThat(MapReduceJobs.where(local)).contains("LocalJobRunner");
    Configuration yarn = new Configuration(false);
    yarn.set("mapreduce.framework.name", "yarn");
    yarn.set("yarn.resourcemanager.address", "127.0.0.1:29032");
    assertThat(MapReduceJobs.isLocal(yarn)).isFalse();
    assertThat(MapReduceJobs.where(yarn)).isEqualTo("MapReduce on YARN at 127.0.0.1:29032");
  }

  /** A mapper that fails on its first record. */
  public static final class FailingMapper
      extends org.apache.hadoop.mapreduce.Mapper<Object, Object, Object, Object> {
    @Override
    protected void map(Object key, Object value, Context context) {
      throw new IllegalStateException("planted failure in map");
    }
  }

  @Test
  void aFailedJobIsAnErrorNotAnEmptyResult(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
      throws Exception {
    java.nio.file.Path input = java.nio.file.Files.writeString(dir.resolve("in.txt"), "one line\n");
    Configuration conf = new Configuration();
    conf.set("mapreduce.framework.name", "local");
    conf.set("hadoop.tmp.dir", dir.resolve("tmp").toString());
    org.apache.hadoop.mapreduce.Job job =
        org.apache.hadoop.mapreduce.Job.getInstance(conf, "failing");
    job.setMapperClass(FailingMapper.class);
    job.setNumReduceTasks(0);
    org.apache.hadoop.mapreduce.lib.input.FileInputFormat.addInputPath(
        job, new org.apache.hadoop.fs.Path(input.toUri()));
    job.setOutputFormatClass(org.apache.hadoop.mapreduce.lib.output.NullOutputFormat.class);
    MapReduceJobs.prepare(job, FailingMapper.class);
    java.util.List<String> announced = new java.util.ArrayList<>();
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> MapReduceJobs.run(job, announced::add, j -> {}))
        .isInstanceOf(BatchJobException.class)
        .hasMessageContaining("LocalJobRunner")
        .hasMessageContaining("FAILED");
    assertThat(announced).singleElement().asString().contains("job_local");
    assertThat(org.casebook.core.ErrorKind.of(new BatchJobException("x", null)).exitCode())
        .isEqualTo(8);
  }
}
