package org.casebook.core.settings;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeSet;
import org.casebook.core.InvalidInputException;
import org.casebook.core.LocalFileException;

/**
 * Where settings come from, with one precedence rule: a default, overridden by the settings file,
 * overridden by the environment ({@code CASEBOOK_<SYSTEM>_<NAME>}), overridden by {@code --set
 * <system>.<name>=VALUE}. A key in the file or in {@code --set} that no system declares is refused
 * ({@link #checkKnown}); the environment carries other variables, so there only declared names are
 * read.
 */
public final class SettingSources {
  private final Optional<Path> file;
  private final Map<String, String> fileValues;
  private final Map<String, String> environment;
  private final Map<String, String> commandLine;

  private SettingSources(
      Optional<Path> file,
      Map<String, String> fileValues,
      Map<String, String> environment,
      Map<String, String> commandLine) {
    this.file = file;
    this.fileValues = Map.copyOf(fileValues);
    this.environment = Map.copyOf(environment);
    this.commandLine = Map.copyOf(commandLine);
  }

  /** No sources: every setting at its default (tests, tools). */
  public static SettingSources none() {
    return new SettingSources(Optional.empty(), Map.of(), Map.of(), Map.of());
  }

  /**
   * @param file a properties file ({@code key=value} lines; {@code #} comments), if any
   * @param required when true a missing file is an error; else a missing file is no source
   * @param environment the process environment (only {@code CASEBOOK_…} names of declared settings
   *     are read)
   * @param commandLine {@code --set} pairs
   */
  public static SettingSources of(
      Optional<Path> file,
      boolean required,
      Map<String, String> environment,
      Map<String, String> commandLine) {
    Objects.requireNonNull(file, "file is null");
    Map<String, String> values = new LinkedHashMap<>();
    Optional<Path> read = Optional.empty();
    if (file.isPresent()) {
      Path p = file.get();
      try (Reader in = Files.newBufferedReader(p, StandardCharsets.UTF_8)) {
        Properties props = new Properties();
        props.load(in);
        for (String k : new TreeSet<>(props.stringPropertyNames())) {
          values.put(k.strip(), props.getProperty(k));
        }
        read = Optional.of(p);
      } catch (NoSuchFileException e) {
        if (required) {
          throw LocalFileException.of("read the settings file", p, e);
        }
      } catch (IOException | IllegalArgumentException e) {
        throw new InvalidInputException("settings", "cannot read settings file " + p + ": " + e);
      }
    }
    return new SettingSources(read, values, environment, commandLine);
  }

  /**
   * These sources with {@code more} set as by {@code --set} (winning over this {@code --set}): how
   * a program that starts a system itself (a test, a benchmark) gives it settings.
   */
  public SettingSources withSet(Map<String, String> more) {
    Map<String, String> merged = new LinkedHashMap<>(commandLine);
    merged.putAll(more);
    return new SettingSources(file, fileValues, environment, merged);
  }

  /** The settings file that was read, if any. */
  public Optional<Path> file() {
    return file;
  }

  /** The effective values of {@code declared} under {@code scope}; a bad value names its key. */
  public SystemSettings resolve(String scope, List<Setting<?>> declared) {
    List<SettingValue> out = new ArrayList<>();
    for (Setting<?> s : declared) {
      out.add(resolve(scope, s));
    }
    return new SystemSettings(scope, out);
  }

  private SettingValue resolve(String scope, Setting<?> s) {
    String key = s.key(scope);
    String variable = s.environmentVariable(scope);
    if (commandLine.containsKey(key)) {
      return parse(s, key, commandLine.get(key), SettingSource.COMMAND_LINE, "--set " + key);
    }
    String env = environment.get(variable);
    if (env != null && !env.isBlank()) {
      return parse(s, key, env, SettingSource.ENVIRONMENT, variable);
    }
    if (fileValues.containsKey(key)) {
      return parse(s, key, fileValues.get(key), SettingSource.FILE, file.orElseThrow().toString());
    }
    return new SettingValue(key, s, s.defaultValue(), SettingSource.DEFAULT, "");
  }

  private static SettingValue parse(
      Setting<?> s, String key, String text, SettingSource source, String origin) {
    try {
      return new SettingValue(key, s, s.parser().apply(text), source, origin);
    } catch (IllegalArgumentException e) {
      throw new InvalidInputException(key, key + " (from " + origin + ") " + e.getMessage());
    }
  }

  /**
   * Refuses a key in the file or in {@code --set} that is not among {@code declared} (scope →
   * settings), naming it and the keys there are.
   */
  public void checkKnown(Map<String, List<Setting<?>>> declared) {
    TreeSet<String> known = new TreeSet<>();
    declared.forEach((scope, list) -> list.forEach(s -> known.add(s.key(scope))));
    checkKnown(commandLine.keySet(), known, "set", "--set");
    checkKnown(fileValues.keySet(), known, "settings", file.map(Path::toString).orElse("file"));
  }

  /**
   * Refuses a key of {@code set} (as by {@code --set}) that is not among {@code declared} (scope →
   * settings).
   */
  public static void checkSet(Map<String, String> set, Map<String, List<Setting<?>>> declared) {
    none().withSet(set).checkKnown(declared);
  }

  private static void checkKnown(
      Iterable<String> keys, TreeSet<String> known, String field, String where) {
    for (String k : keys) {
      if (!known.contains(k)) {
        throw new InvalidInputException(
            field,
            "unknown setting '"
                + k
                + "' in "
                + where
                + " (known: "
                + (known.isEmpty() ? "none" : String.join(", ", known))
                + "; ./casebook config lists them)");
      }
    }
  }
}
