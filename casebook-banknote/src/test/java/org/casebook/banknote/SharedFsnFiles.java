package org.casebook.banknote;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The real FSN files of two sorters, kept outside the repository in the project's shared directory
 * (next to the checkout: the parent of the Maven root). Tests that need them are skipped, with a
 * message saying why, where that directory is absent; the files are never copied in.
 */
final class SharedFsnFiles {
  private SharedFsnFiles() {}

  /** {@code <shared>/data/fsn/<name>}, or the test is skipped. */
  static Path require(String name) {
    Path root = Path.of("").toAbsolutePath();
    while (root != null && !Files.exists(root.resolve("CONTRIBUTING.md"))) {
      root = root.getParent();
    }
    Path file =
        root == null || root.getParent() == null
            ? null
            : root.getParent().resolve("shared").resolve("data").resolve("fsn").resolve(name);
    assumeTrue(
        file != null && Files.isRegularFile(file),
        "skipped: the real FSN file "
            + name
            + " is not here (the shared data directory next to the checkout is absent)");
    return file;
  }
}
