package org.casebook.archive.batch;

import java.io.IOException;
import java.util.Optional;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.casebook.archive.BadRecords;
import org.casebook.archive.wire.ArchiveReader;

/**
 * One archive file read as both loaders read it (the bulk load's mapper and the put path): whole or
 * not at all, or salvaging its good records; its size, how often it was opened, how long that took,
 * the records it set aside, and why it was refused.
 */
record ArchiveFileRead(long size, int reads, long nanos, long setAside, Optional<String> failure) {
  /**
   * Reads {@code file} into {@code sink} with up to {@code attempts} tries, holding files up to
   * {@code holdBytes} in memory while they are checked (see {@link
   * ArchiveReader#readAllOrNothing}); when salvaging, bad records go to the file's rejects file in
   * {@code quarantine}, which is rewritten (or removed) by every read whatever the mode.
   */
  static ArchiveFileRead of(
      FileSystem fs,
      Path file,
      int attempts,
      long holdBytes,
      BadRecords badRecords,
      Path quarantine,
      ArchiveReader.Sink sink)
      throws IOException {
    try (RejectsFile rejects = new RejectsFile(fs.getConf(), quarantine, file)) {
      return of(fs, file, attempts, holdBytes, badRecords, rejects, sink);
    }
  }

  /** As above, the records set aside going to {@code rejects} (a dry run's count). */
  static ArchiveFileRead of(
      FileSystem fs,
      Path file,
      int attempts,
      long holdBytes,
      BadRecords badRecords,
      ArchiveReader.Rejects rejects,
      ArchiveReader.Sink sink)
      throws IOException {
    long size = fs.getFileStatus(file).getLen();
    long started = System.nanoTime();
    int[] reads = {0};
    ArchiveReader.Source source =
        () -> {
          reads[0]++;
          return fs.open(file, 1 << 16);
        };
    long[] setAside = {0};
    ArchiveReader.Rejects counted =
        rejected -> {
          setAside[0]++;
          rejects.reject(rejected);
        };
    Optional<String> failure =
        badRecords == BadRecords.SALVAGE
            ? ArchiveReader.readSalvaging(source, size, attempts, holdBytes, sink, counted)
            : ArchiveReader.readAllOrNothing(source, size, attempts, holdBytes, sink);
    return new ArchiveFileRead(size, reads[0], System.nanoTime() - started, setAside[0], failure);
  }
}
