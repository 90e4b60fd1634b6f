package org.casebook.core;

import java.io.File;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermission;
import java.security.Principal;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.fs.permission.FsPermission;

/**
 * Hadoop's local file system with two changes. Permissions are set and read through {@code
 * java.nio}. Without Hadoop's native library (which Maven Central does not carry) the local file
 * system forks a {@code chmod} process for every file and directory it creates with a permission,
 * and an {@code ls -ld} for every status whose permission or owner is read; embedded HBase and the
 * LocalJobRunner create thousands (1,159 processes in one 80 MB archive bulk load, measured with
 * JFR). And it has a canonical service name: HBase moves bulk-loaded HFiles only between file
 * systems whose service names match, and copies them otherwise (twice: into its staging directory,
 * then into the store); Hadoop's local file system has none, so every embedded bulk load copied its
 * files. Used for {@code file:} in embedded mode only, where the job, the loader and the region
 * server are one process on one disk.
 */
public final class NioLocalFileSystem extends LocalFileSystem {
  /** What {@link #getCanonicalServiceName()} returns: one name for this process's local disk. */
  static final String SERVICE_NAME = "file:///";

  public NioLocalFileSystem() {
    super(new NioRawLocalFileSystem());
  }

  @Override
  public String getCanonicalServiceName() {
    return SERVICE_NAME;
  }

  /** The raw (checksum-less) layer: the place Hadoop forks. */
  static final class NioRawLocalFileSystem extends RawLocalFileSystem {
    /**
     * One {@code stat} instead of Hadoop's lazily loaded status, which forks {@code ls -ld} the
     * first time its permission, owner or group is read — twice per HFile in an HBase bulk load
     * (the permission check and the staging move).
     */
    @Override
    public FileStatus getFileStatus(Path f) throws IOException {
      File file = pathToFile(f);
      Map<String, Object> a;
      try {
        a =
            Files.readAttributes(
                file.toPath(),
                "unix:mode,owner,group,size,isDirectory,lastModifiedTime,lastAccessTime");
      } catch (NoSuchFileException e) {
        throw new FileNotFoundException("File " + f + " does not exist");
      } catch (UnsupportedOperationException e) {
        return super.getFileStatus(f);
      }
      return new FileStatus(
          (Long) a.get("size"),
          (Boolean) a.get("isDirectory"),
          1,
          getDefaultBlockSize(f),
          ((FileTime) a.get("lastModifiedTime")).toMillis(),
          ((FileTime) a.get("lastAccessTime")).toMillis(),
          new FsPermission((short) ((Integer) a.get("mode") & 01777)),
          ((Principal) a.get("owner")).getName(),
          ((Principal) a.get("group")).getName(),
          new Path(file.getPath()).makeQualified(getUri(), getWorkingDirectory()));
    }

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
    add(
        set,
        permission.getUserAction(),
        PosixFilePermission.OWNER_READ,
        PosixFilePermission.OWNER_WRITE,
        PosixFilePermission.OWNER_EXECUTE);
    add(
        set,
        permission.getGroupAction(),
        PosixFilePermission.GROUP_READ,
        PosixFilePermission.GROUP_WRITE,
        PosixFilePermission.GROUP_EXECUTE);
    add(
        set,
        permission.getOtherAction(),
        PosixFilePermission.OTHERS_READ,
        PosixFilePermission.OTHERS_WRITE,
        PosixFilePermission.OTHERS_EXECUTE);
    return set;
  }

  private static void add(
      Set<PosixFilePermission> set,
      FsAction action,
      PosixFilePermission read,
      PosixFilePermission write,
      PosixFilePermission execute) {
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
