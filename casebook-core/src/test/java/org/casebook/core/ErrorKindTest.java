package org.casebook.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class ErrorKindTest {
  @Test
  void oneTableForStatusAndExitCode() {
    assertThat(ErrorKind.of(new InvalidInputException("f", "bad")))
        .isEqualTo(ErrorKind.INVALID_INPUT);
    assertThat(ErrorKind.INVALID_INPUT.httpStatus()).isEqualTo(400);
    assertThat(ErrorKind.INVALID_INPUT.exitCode()).isEqualTo(2);
    assertThat(ErrorKind.of(new NotFoundException("x")).httpStatus()).isEqualTo(404);
    assertThat(ErrorKind.of(new ConflictException("x")).httpStatus()).isEqualTo(409);
    assertThat(ErrorKind.of(new PreconditionFailedException("x")).httpStatus()).isEqualTo(412);
    assertThat(ErrorKind.of(StorageException.of("read", new IOException("gone"))))
        .isEqualTo(ErrorKind.STORAGE_UNAVAILABLE);
    assertThat(ErrorKind.of(new IllegalStateException("bug"))).isEqualTo(ErrorKind.INTERNAL);
  }

  @Test
  void localFilesAndInterruptsAreNotStorageFailures() {
    assertThat(ErrorKind.of(LocalFileException.of("read", Path.of("x"), new IOException("disk"))))
        .isEqualTo(ErrorKind.LOCAL_FILE);
    assertThat(ErrorKind.of(new UncheckedIOException(new NoSuchFileException("x"))))
        .isEqualTo(ErrorKind.LOCAL_FILE);
    assertThat(ErrorKind.of(new UncheckedIOException(new InterruptedIOException("stop"))))
        .isEqualTo(ErrorKind.INTERRUPTED);
    StorageException interrupted = StorageException.of("read", new InterruptedIOException("stop"));
    Thread
        .interrupted(); // the factory re-sets the flag for the caller; clear it for the next tests
    assertThat(ErrorKind.of(interrupted)).isEqualTo(ErrorKind.INTERRUPTED);
    assertThat(ErrorKind.INTERRUPTED.httpStatus()).isEqualTo(503);
    // A socket timeout is an InterruptedIOException, but nobody was interrupted.
    StorageException timedOut =
        StorageException.of("read", new java.net.SocketTimeoutException("slow"));
    assertThat(Thread.currentThread().isInterrupted()).isFalse();
    assertThat(ErrorKind.of(timedOut)).isEqualTo(ErrorKind.STORAGE_UNAVAILABLE);
    assertThat(ErrorKind.of(new UncheckedIOException(new java.net.SocketTimeoutException("slow"))))
        .isEqualTo(ErrorKind.STORAGE_UNAVAILABLE);
    assertThat(ErrorKind.LOCAL_FILE.httpStatus()).isEqualTo(500);
  }
}
