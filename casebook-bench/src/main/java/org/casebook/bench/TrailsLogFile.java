package org.casebook.bench;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.casebook.core.Json;
import org.casebook.core.LocalFileException;
import org.casebook.core.cli.Progress;
import org.casebook.trails.gen.LogGenerator;

/**
 * {@code bench trails}' generated log, reused across runs: beside {@code logs.jsonl} a sidecar
 * {@code logs.jsonl.spec} (JSON) names the generator spec it was written with and its length. A
 * later run with the same spec reuses a log whose length still matches (100M lines take many
 * minutes to write); anything else is generated again. A log is written under a temporary name and
 * renamed when complete, and its sidecar only after that, so an interrupted run never leaves a log
 * that looks complete.
 */
final class TrailsLogFile {
  /** The log ready for the run, and whether it came from an earlier run. */
  record Ready(LogGenerator.Written written, boolean reused) {}

  private TrailsLogFile() {}

  /** The sidecar of {@code log}: {@code <log>.spec}. */
  static Path specFile(Path log) {
    return log.resolveSibling(log.getFileName() + ".spec");
  }

  /** Where {@code log} is written before it is complete: {@code <log>.partial}. */
  static Path partialFile(Path log) {
    return log.resolveSibling(log.getFileName() + ".partial");
  }

  /**
   * The log of an earlier run, when its sidecar names {@code spec} and the file's length is the one
   * the sidecar recorded; empty otherwise (no log, no sidecar, another spec, a changed file, an
   * unreadable sidecar).
   */
  static Optional<LogGenerator.Written> reusable(Path log, LogGenerator.Spec spec) {
    Path side = specFile(log);
    if (!Files.isRegularFile(log) || !Files.isRegularFile(side)) {
      return Optional.empty();
    }
    JsonNode recorded;
    long length;
    try {
      recorded = Json.mapper().readTree(Files.readString(side));
      length = Files.size(log);
    } catch (IOException e) {
      return Optional.empty(); // unreadable or not JSON: generate again
    }
    if (recorded == null || !recorded.isObject()) {
      return Optional.empty();
    }
    // Compared as text: a number read back may be another node type than the one written (an int
    // for a long), and the spec's fields are integers, one decimal share, a date and a seed.
    for (Map.Entry<String, Object> field : specJson(spec).entrySet()) {
      JsonNode value = recorded.get(field.getKey());
      if (value == null
          || !value.isValueNode()
          || !value.asText().equals(String.valueOf(field.getValue()))) {
        return Optional.empty();
      }
    }
    JsonNode bytes = recorded.path("bytes");
    JsonNode lines = recorded.path("lines");
    JsonNode malformed = recorded.path("malformed");
    if (!bytes.canConvertToLong()
        || bytes.asLong() != length
        || !lines.canConvertToLong()
        || !malformed.canConvertToLong()) {
      return Optional.empty();
    }
    return Optional.of(new LogGenerator.Written(log, lines.asLong(), malformed.asLong(), length));
  }

  /**
   * The log for {@code spec}: the earlier run's when {@link #reusable}, else generated now (with
   * the progress {@code progress} opens) under a temporary name, renamed, then described by its
   * sidecar.
   */
  static Ready prepare(Path log, LogGenerator.Spec spec, Supplier<Progress> progress) {
    Optional<LogGenerator.Written> earlier = reusable(log, spec);
    if (earlier.isPresent()) {
      return new Ready(earlier.get(), true);
    }
    Path side = specFile(log);
    Path partial = partialFile(log);
    try {
      // The old sidecar goes first: from here until the new one is written, no sidecar vouches for
      // whatever is at the log's name.
      Files.deleteIfExists(side);
      Files.deleteIfExists(log);
      LogGenerator.Written w;
      try (Progress p = progress.get()) {
        w = LogGenerator.write(spec, partial, p);
      }
      Files.move(partial, log, StandardCopyOption.ATOMIC_MOVE);
      Map<String, Object> json = specJson(spec);
      json.put("lines", w.lines());
      json.put("malformed", w.malformed());
      json.put("bytes", w.bytes());
      Path sideTmp = partialFile(side);
      Files.writeString(sideTmp, Json.write(json));
      Files.move(sideTmp, side, StandardCopyOption.ATOMIC_MOVE);
      return new Ready(new LogGenerator.Written(log, w.lines(), w.malformed(), w.bytes()), false);
    } catch (IOException e) {
      throw LocalFileException.of("write", log, e);
    }
  }

  /** What a log's sidecar must repeat for the log to be reused. */
  private static Map<String, Object> specJson(LogGenerator.Spec spec) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("users", spec.users());
    m.put("days", spec.days());
    m.put("records", spec.records());
    m.put("malformedShare", spec.malformedShare());
    m.put("firstDay", spec.firstDay().toString());
    m.put("seed", spec.seed());
    return m;
  }
}
