package org.casebook.archive;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapred.JobConf;
import org.junit.jupiter.api.Test;

class ArchiveBulkLoadTest {
  @Test
  void localTuningReplacesHadoopDefaultsButNotWhatTheUserSet() {
    new JobConf(); // loads mapred-default.xml into every Configuration, as any job run does
    Configuration conf = new Configuration();
    assertThat(conf.get("mapreduce.task.io.sort.mb"))
        .as("Hadoop's default is visible")
        .isEqualTo("100");
    ArchiveBulkLoad.setUnlessConfigured(conf, "mapreduce.task.io.sort.mb", "32");
    assertThat(conf.get("mapreduce.task.io.sort.mb")).isEqualTo("32");

    Configuration user = new Configuration();
    user.set("mapreduce.task.io.sort.mb", "64");
    Configuration copy = new Configuration(user);
    ArchiveBulkLoad.setUnlessConfigured(copy, "mapreduce.task.io.sort.mb", "32");
    assertThat(copy.get("mapreduce.task.io.sort.mb")).isEqualTo("64");

    Configuration empty = new Configuration(false);
    ArchiveBulkLoad.setUnlessConfigured(empty, "casebook.test.key", "x");
    assertThat(empty.get("casebook.test.key")).isEqualTo("x");
  }
}
