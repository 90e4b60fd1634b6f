package org.casebook.banknote;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import org.casebook.core.LocalFileException;

/**
 * Where refused input goes, with its reasons: a malformed file is moved (agent) or copied (import)
 * into a quarantine directory next to {@code <name>.reasons}; rejected records of a good file are
 * listed in {@code <name>.rejects}, one {@code record<TAB>field<TAB>reason} line each.
 */
public final class Quarantine {
  private Quarantine() {}

  /**
   * Puts {@code file} in {@code dir} (moving it if {@code move}) and writes its reason beside it.
   */
  public static Path file(Path dir, Path file, String reason, boolean move) {
    Path target = dir.resolve(file.getFileName());
    try {
      Files.createDirectories(dir);
      if (move) {
        Files.move(file, target, StandardCopyOption.REPLACE_EXISTING);
      } else {
        Files.copy(file, target, StandardCopyOption.REPLACE_EXISTING);
      }
      Files.writeString(
          dir.resolve(file.getFileName() + ".reasons"),
          reason + System.lineSeparator(),
          StandardCharsets.UTF_8);
      return target;
    } catch (IOException e) {
      throw LocalFileException.of("quarantine", file, e);
    }
  }

  /**
   * Writes the rejected records of {@code name} to {@code dir/<name>.rejects}; returns its path.
   */
  public static Path rejects(Path dir, String name, List<Reject> rejects) {
    Path out = dir.resolve(name + ".rejects");
    try {
      Files.createDirectories(dir);
      try (BufferedWriter w = Files.newBufferedWriter(out, StandardCharsets.UTF_8)) {
        for (Reject r : rejects) {
          w.write(r.record() + "\t" + r.field() + "\t" + r.reason().replace('\n', ' '));
          w.newLine();
        }
      }
      return out;
    } catch (IOException e) {
      throw LocalFileException.of("write rejects", out, e);
    }
  }
}
