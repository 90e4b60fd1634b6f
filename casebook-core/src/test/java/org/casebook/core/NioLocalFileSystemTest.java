package org.casebook.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.FileNotFoundException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.permission.FsPermission;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NioLocalFileSystemTest {
  @Test
  void permissionsMatchWhatChmodWouldSet() {
    for (short mode : new short[] {0755, 0644, 0700, 0777, 0600, 0711, 0}) {
      String expected = PosixFilePermissions.toString(NioLocalFileSystem.posix(new FsPermission(mode)));
      assertThat(expected).as(Integer.toOctalString(mode)).isEqualTo(new FsPermission(mode).toString());
    }
  }

  @Test
  void filesAndDirectoriesGetTheirPermissionsWithoutAProcess(@TempDir Path dir) throws Exception {
    Configuration conf = new Configuration(false);
    conf.set("fs.file.impl", NioLocalFileSystem.class.getName());
    conf.setBoolean("fs.file.impl.disable.cache", true);
    try (FileSystem fs = FileSystem.newInstance(dir.toUri(), conf)) {
      assertThat(fs).isInstanceOf(NioLocalFileSystem.class);
      org.apache.hadoop.fs.Path sub = new org.apache.hadoop.fs.Path(dir.resolve("a/b").toUri());
      assertThat(fs.mkdirs(sub, new FsPermission((short) 0750))).isTrue();
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("a/b")))).isEqualTo("rwxr-x---");
      org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path(sub, "f");
      try (FSDataOutputStream out = fs.create(file, new FsPermission((short) 0640), true, 4096, (short) 1, 1 << 20, null)) {
        out.writeUTF("x");
      }
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("a/b/f")))).isEqualTo("rw-r-----");
      fs.setPermission(file, new FsPermission((short) 0604));
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("a/b/f")))).isEqualTo("rw----r--");
      assertThatThrownBy(() -> fs.setPermission(new org.apache.hadoop.fs.Path(sub, "missing"), new FsPermission((short) 0644)))
          .isInstanceOf(FileNotFoundException.class);
    }
  }
}
