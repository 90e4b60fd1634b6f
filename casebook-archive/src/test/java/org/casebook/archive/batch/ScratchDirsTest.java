package org.casebook.archive.batch;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ScratchDirsTest {
  @Test
  void leftOversOfKilledLoadsGoAndRunningOnesStay(@TempDir Path parent) throws Exception {
    // A load killed midway: its directory is there, nobody holds it.
    Path abandoned = Files.createDirectories(parent.resolve("archive-bulkload-123"));
    Files.writeString(abandoned.resolve("partitions"), "x");
    Files.createFile(abandoned.resolve(".in-use"));
    Path older = Files.createDirectories(parent.resolve("archive-bulkload-99"));
    Path other = Files.createDirectories(parent.resolve("trails-active-1"));
    try (ScratchDirs.Held running = ScratchDirs.create(parent, "archive-bulkload-")) {
      assertThat(ScratchDirs.removeAbandoned(parent, "archive-bulkload-")).isEqualTo(2);
      assertThat(abandoned).doesNotExist();
      assertThat(older).doesNotExist();
      assertThat(running.path()).exists();
      assertThat(other).exists();
      Path held = running.path();
      running.close();
      assertThat(held).doesNotExist();
    }
  }
}
