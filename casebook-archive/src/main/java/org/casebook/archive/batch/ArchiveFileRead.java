package org.casebook.archive.batch;

import java.io.IOException;
import java.util.Optional;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.casebook.archive.wire.ArchiveReader;

/**
 * One archive file read whole or not at all, as both loaders read it (the bulk load's mapper and
 * the put path): its size, how often it was opened, how long that took, and why it was refused.
 */
record ArchiveFileRead(long size, int reads, long nanos, Optional<String> failure) {
  /**
   * Reads {@code file} into {@code sink} with up to {@code attempts} tries, holding files up to
   * {@code holdBytes} in memory while they are checked (see {@link
   * ArchiveReader#readAllOrNothing}).
   */
  static ArchiveFileRead of(
      FileSystem fs, Path file, int attempts, long holdBytes, ArchiveReader.Sink sink)
      throws IOException {
    long size = fs.getFileStatus(file).getLen();
    long started = System.nanoTime();
    int[] reads = {0};
    Optional<String> failure =
        ArchiveReader.readAllOrNothing(
            () -> {
              reads[0]++;
              return fs.open(file, 1 << 16);
            },
            size,
            attempts,
            holdBytes,
            sink);
    return new ArchiveFileRead(size, reads[0], System.nanoTime() - started, failure);
  }
}
