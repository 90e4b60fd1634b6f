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
      String expected =
          PosixFilePermissions.toString(NioLocalFileSystem.posix(new FsPermission(mode)));
      assertThat(expected)
          .as(Integer.toOctalString(mode))
          .isEqualTo(new FsPermission(mode).toString());
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
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("a/b"))))
          .isEqualTo("rwxr-x---");
      org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path(sub, "f");
      try (FSDataOutputStream out =
          fs.create(file, new FsPermission((short) 0640), true, 4096, (short) 1, 1 << 20, null)) {
        out.writeUTF("x");
      }
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("a/b/f"))))
          .isEqualTo("rw-r-----");
      fs.setPermission(file, new FsPermission((short) 0604));
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("a/b/f"))))
          .isEqualTo("rw----r--");
      assertThatThrownBy(
              () ->
                  fs.setPermission(
                      new org.apache.hadoop.fs.Path(sub, "missing"),
                      new FsPermission((short) 0644)))
          .isInstanceOf(FileNotFoundException.class);
    }
  }

  @Test
  void hbaseSeesTwoInstancesAsOneFileSystemSoBulkLoadsMoveFiles(@TempDir Path dir)
      throws Exception {
    Configuration conf = new Configuration(false);
    conf.set("fs.file.impl", NioLocalFileSystem.class.getName());
    try (FileSystem a = FileSystem.newInstance(dir.toUri(), conf);
        FileSystem b = FileSystem.newInstance(dir.toUri(), conf)) {
      assertThat(org.apache.hadoop.hbase.util.FSUtils.isSameHdfs(conf, a, b)).isTrue();
    }
    // Hadoop's own local file system is "different" from itself: HBase copies between them.
    Configuration plain = new Configuration(false);
    plain.set("fs.file.impl", org.apache.hadoop.fs.LocalFileSystem.class.getName());
    try (FileSystem a = FileSystem.newInstance(dir.toUri(), plain);
        FileSystem b = FileSystem.newInstance(dir.toUri(), plain)) {
      assertThat(org.apache.hadoop.hbase.util.FSUtils.isSameHdfs(plain, a, b)).isFalse();
    }
  }

  @Test
  void statusesMatchHadoopsOwnLocalFileSystem(@TempDir Path dir) throws Exception {
    Files.createDirectories(dir.resolve("d/sticky"));
    Files.writeString(dir.resolve("d/f"), "hello");
    Configuration nio = new Configuration(false);
    nio.set("fs.file.impl", NioLocalFileSystem.class.getName());
    Configuration plain = new Configuration(false);
    plain.set("fs.file.impl", org.apache.hadoop.fs.LocalFileSystem.class.getName());
    try (FileSystem ours = FileSystem.newInstance(dir.toUri(), nio);
        FileSystem hadoops = FileSystem.newInstance(dir.toUri(), plain)) {
      hadoops.setPermission(
          new org.apache.hadoop.fs.Path(dir.resolve("d/sticky").toUri()),
          new FsPermission((short) 01770));
      hadoops.setPermission(
          new org.apache.hadoop.fs.Path(dir.resolve("d/f").toUri()),
          new FsPermission((short) 0640));
      for (String name : new String[] {"d", "d/f", "d/sticky"}) {
        org.apache.hadoop.fs.Path p = new org.apache.hadoop.fs.Path(dir.resolve(name).toUri());
        org.apache.hadoop.fs.FileStatus a = ours.getFileStatus(p);
        org.apache.hadoop.fs.FileStatus b = hadoops.getFileStatus(p);
        assertThat(a.getPath()).as(name).isEqualTo(b.getPath());
        assertThat(a.getPermission()).as(name).isEqualTo(b.getPermission());
        assertThat(a.getOwner()).as(name).isEqualTo(b.getOwner());
        assertThat(a.getGroup()).as(name).isEqualTo(b.getGroup());
        assertThat(a.isDirectory()).as(name).isEqualTo(b.isDirectory());
        assertThat(a.getLen()).as(name).isEqualTo(b.getLen());
        assertThat(a.getModificationTime()).as(name).isEqualTo(b.getModificationTime());
      }
      assertThat(
              ours.getFileStatus(new org.apache.hadoop.fs.Path(dir.resolve("d/sticky").toUri()))
                  .getPermission()
                  .getStickyBit())
          .isTrue();
      assertThat(ours.listStatus(new org.apache.hadoop.fs.Path(dir.resolve("d").toUri())))
          .hasSize(2);
      assertThatThrownBy(
              () ->
                  ours.getFileStatus(new org.apache.hadoop.fs.Path(dir.resolve("missing").toUri())))
          .isInstanceOf(FileNotFoundException.class);
    }
  }
}
