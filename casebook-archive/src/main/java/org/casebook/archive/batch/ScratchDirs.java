package org.casebook.archive.batch;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.casebook.core.LocalFileException;
import org.casebook.core.LocalFiles;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Local scratch directories of bulk loads, each held by a file lock while its job runs. A load
 * killed midway leaves its directory behind; the next load removes every directory with the prefix
 * whose lock nobody holds (another process's running load keeps its own).
 */
final class ScratchDirs {
  private static final Logger LOG = LoggerFactory.getLogger(ScratchDirs.class);
  private static final String LOCK = ".in-use";

  /** A directory held for one run; closing releases the lock and deletes the directory. */
  static final class Held implements AutoCloseable {
    private final Path path;
    private final FileChannel channel;
    private final FileLock lock;
    private boolean closed;

    private Held(Path path, FileChannel channel, FileLock lock) {
      this.path = path;
      this.channel = channel;
      this.lock = lock;
    }

    Path path() {
      return path;
    }

    @Override
    public void close() {
      if (closed) {
        return;
      }
      closed = true;
      try {
        lock.release();
        channel.close();
        LocalFiles.deleteRecursively(path);
      } catch (IOException e) {
        throw LocalFileException.of("remove the scratch directory", path, e);
      }
    }
  }

  private ScratchDirs() {}

  static Held create(Path parent, String prefix) {
    try {
      Files.createDirectories(parent);
      Path dir = Files.createTempDirectory(parent, prefix);
      FileChannel channel =
          FileChannel.open(dir.resolve(LOCK), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
      return new Held(dir, channel, channel.lock());
    } catch (IOException e) {
      throw LocalFileException.of("create a scratch directory in", parent, e);
    }
  }

  /** Deletes the directories under {@code parent} named {@code prefix*} that no run holds. */
  static int removeAbandoned(Path parent, String prefix) {
    if (!Files.isDirectory(parent)) {
      return 0;
    }
    int removed = 0;
    try (DirectoryStream<Path> dirs = Files.newDirectoryStream(parent, prefix + "*")) {
      for (Path dir : dirs) {
        if (Files.isDirectory(dir) && !held(dir)) {
          LocalFiles.deleteRecursively(dir);
          LOG.info("removed {}, left behind by a bulk load that did not finish", dir);
          removed++;
        }
      }
    } catch (IOException e) {
      throw LocalFileException.of("clean up scratch directories in", parent, e);
    }
    return removed;
  }

  private static boolean held(Path dir) throws IOException {
    Path lockFile = dir.resolve(LOCK);
    if (!Files.exists(lockFile)) {
      return false;
    }
    try (FileChannel channel = FileChannel.open(lockFile, StandardOpenOption.WRITE)) {
      FileLock lock = channel.tryLock();
      if (lock == null) {
        return true;
      }
      lock.release();
      return false;
    } catch (OverlappingFileLockException sameProcess) {
      return true;
    }
  }
}
