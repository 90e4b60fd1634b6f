package org.casebook.trails.batch;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.casebook.core.batch.MapReduceJobs;

/**
 * Where a job launched from this module keeps its input and output: the given local directory for
 * the LocalJobRunner, a directory of the same name under the cluster file system's {@code /tmp} on
 * YARN, where every task can read and write it.
 */
final class JobWorkDirs {
  private JobWorkDirs() {}

  static Path of(Configuration jobConf, java.nio.file.Path localWorkDir) {
    return MapReduceJobs.isLocal(jobConf)
        ? new Path(localWorkDir.toAbsolutePath().toUri())
        : new Path(
            "/tmp/casebook-" + System.getProperty("user.name"),
            localWorkDir.getFileName().toString());
  }
}
