package org.casebook.core;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.attribute.PosixFilePermission;
import java.util.EnumSet;
import java.util.Set;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.fs.permission.FsPermission;

/**
 * Hadoop's local file system with one change: permissions are set through {@code java.nio}.
 * Without Hadoop's native library (which Maven Central does not carry) the local file system
 * forks a {@code chmod} process for every file and directory it creates with a permission;
 * embedded HBase and the LocalJobRunner create thousands (1,159 processes in one 80 MB archive
 * bulk load, measured with JFR). Used for {@code file:} in embedded mode only.
 */
public final class NioLocalFileSystem extends LocalFileSystem {
  public NioLocalFileSystem() {
    super(new NioRawLocalFileSystem());
  }

  /** The raw (checksum-less) layer: the place Hadoop forks. */
  static final class NioRawLocalFileSystem extends RawLocalFileSystem {
    @Override
    public void setPermission(Path p, FsPermission permission) throws IOException {
      java.nio.file.Path file = pathToFile(p).toPath();
      try {
        Files.setPosixFilePermissions(file, posix(permission));
      } catch (NoSuchFileException e) {
        throw new FileNotFoundException("File " + p + " does not exist");
      } catch (UnsupportedOperationException e) {
        // Not a POSIX file system: Hadoop's own way.
        super.setPermission(p, permission);
      }
    }
  }

  static Set<PosixFilePermission> posix(FsPermission permission) {
    Set<PosixFilePermission> set = EnumSet.noneOf(PosixFilePermission.class);
    add(set, permission.getUserAction(), PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE,
        PosixFilePermission.OWNER_EXECUTE);
    add(set, permission.getGroupAction(), PosixFilePermission.GROUP_READ, PosixFilePermission.GROUP_WRITE,
        PosixFilePermission.GROUP_EXECUTE);
    add(set, permission.getOtherAction(), PosixFilePermission.OTHERS_READ, PosixFilePermission.OTHERS_WRITE,
        PosixFilePermission.OTHERS_EXECUTE);
    return set;
  }

  private static void add(Set<PosixFilePermission> set, FsAction action, PosixFilePermission read,
                          PosixFilePermission write, PosixFilePermission execute) {
    if (action.implies(FsAction.READ)) {
      set.add(read);
    }
    if (action.implies(FsAction.WRITE)) {
      set.add(write);
    }
    if (action.implies(FsAction.EXECUTE)) {
      set.add(execute);
    }
  }
}
