package org.casebook.trails;

import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.casebook.core.InvalidInputException;

/**
 * A behaviour and its fields: one of the four of seed 000 (ids 1–4, {@link #BUILT_INS}) or one
 * declared through the registry ({@link BehaviourRegistry}, ids 5–255). The id is part of the
 * events row key, so a behaviour's id and its fields' kinds never change once data is written;
 * fields are only ever added. Equal by id: two snapshots of one behaviour (before and after a field
 * was added) are the same behaviour.
 */
public final class Behaviour {
  /**
   * A field's value kind: free text, a non-negative integer, or a non-negative amount with up to 2
   * decimals.
   */
  public enum Kind {
    TEXT,
    COUNT,
    MONEY
  }

  /** A declared field name: a letter, then letters, digits or '_' (camelCase as the built-ins). */
  static final Pattern FIELD_NAME = Pattern.compile("[A-Za-z][A-Za-z0-9_]{0,31}");

  /** A declared behaviour's name: lower-case, as labels are written in logs and queries. */
  static final Pattern NAME = Pattern.compile("[a-z][a-z0-9_]{0,31}");

  /** Names a field may not take: the log line's own keys, and the condition language's word. */
  static final Set<String> RESERVED_FIELDS = Set.of("uid", "type", "ts", "extra");

  /** The most fields a behaviour has. */
  public static final int MAX_FIELDS = 32;

  /** The first id a declared behaviour gets, and the last. */
  static final int FIRST_DECLARED_ID = 5;

  static final int LAST_ID = 255;

  /** One field of a behaviour. */
  public record Field(String name, Kind kind) {
    public Field {
      Objects.requireNonNull(name, "name is null");
      Objects.requireNonNull(kind, "kind is null");
    }

    static Field text(String name) {
      return new Field(name, Kind.TEXT);
    }

    static Field count(String name) {
      return new Field(name, Kind.COUNT);
    }

    static Field money(String name) {
      return new Field(name, Kind.MONEY);
    }
  }

  public static final Behaviour LOGIN =
      new Behaviour(1, "login", List.of(Field.text("device"), Field.text("ip")));
  public static final Behaviour PLAY =
      new Behaviour(
          2,
          "play",
          List.of(
              Field.text("contentId"),
              Field.text("channel"),
              Field.count("start"),
              Field.count("duration")));
  public static final Behaviour VISIT =
      new Behaviour(3, "visit", List.of(Field.text("page"), Field.text("column")));
  public static final Behaviour ORDER =
      new Behaviour(4, "order", List.of(Field.text("product"), Field.money("price")));

  /** The four behaviours of seed 000, by id: the seed-000 task's "all four". */
  public static final List<Behaviour> BUILT_INS = List.of(LOGIN, PLAY, VISIT, ORDER);

  private final int id;
  private final String label;
  private final List<Field> fields;

  /** Each field's qualifier prefix in the events table, in the order of {@link #fields}. */
  private final byte[][] fieldPrefixes;

  private Behaviour(int id, String label, List<Field> fields) {
    this.id = id;
    this.label = label;
    this.fields = List.copyOf(fields);
    this.fieldPrefixes =
        this.fields.stream().map(f -> TrailsKeys.fieldPrefix(f.name())).toArray(byte[][]::new);
  }

  /**
   * A declared behaviour, checked: a name of {@link #NAME} that is no built-in's, an id of {@link
   * #FIRST_DECLARED_ID}..{@link #LAST_ID}, 1..{@link #MAX_FIELDS} fields with distinct names
   * (ignoring case, as queries name them) of {@link #FIELD_NAME}, none {@link #RESERVED_FIELDS}.
   *
   * @throws InvalidInputException on {@code name} or {@code fields}
   */
  static Behaviour declared(int id, String name, List<Field> fields) {
    checkName(name);
    if (id < FIRST_DECLARED_ID || id > LAST_ID) {
      throw new IllegalArgumentException("a declared behaviour's id is 5..255, got " + id);
    }
    checkFields(fields);
    return new Behaviour(id, name, fields);
  }

  /** Null-safe check of a declared behaviour's name (a 400 on {@code name}). */
  static void checkName(String name) {
    InvalidInputException.check(
        name != null && NAME.matcher(name).matches(),
        "name",
        "a behaviour's name is a lower-case letter, then up to 31 lower-case letters, digits or"
            + " '_'");
  }

  /** The checks of {@link #declared} on fields (400s on {@code fields}). */
  static void checkFields(List<Field> fields) {
    InvalidInputException.check(
        fields != null && !fields.isEmpty(), "fields", "at least one field is required");
    InvalidInputException.check(
        fields.size() <= MAX_FIELDS,
        "fields",
        "at most " + MAX_FIELDS + " fields per behaviour, got " + fields.size());
    Set<String> seen = new HashSet<>();
    for (Field f : fields) {
      InvalidInputException.check(f != null, "fields", "fields must not contain null");
      InvalidInputException.check(
          FIELD_NAME.matcher(f.name()).matches(),
          "fields",
          "field '"
              + abbreviate(f.name())
              + "': a field's name is a letter, then up to 31 letters, digits or '_'");
      InvalidInputException.check(
          !RESERVED_FIELDS.contains(f.name().toLowerCase(Locale.ROOT)),
          "fields",
          "field '" + f.name() + "': uid, type, ts and extra are reserved");
      InvalidInputException.check(
          seen.add(f.name().toLowerCase(Locale.ROOT)),
          "fields",
          "field '" + f.name() + "' is named twice (names differ by more than case)");
    }
  }

  private static String abbreviate(String s) {
    return s.length() <= 40 ? s : s.substring(0, 40) + "…";
  }

  public int id() {
    return id;
  }

  /** Whether this is one of the four of seed 000. */
  public boolean builtIn() {
    return id < FIRST_DECLARED_ID;
  }

  /** The name used in logs, URLs and JSON: {@code login}, {@code play}, … or a declared name. */
  public String label() {
    return label;
  }

  public List<Field> fields() {
    return fields;
  }

  public Optional<Field> field(String name) {
    return fields.stream().filter(f -> f.name().equals(name)).findFirst();
  }

  /**
   * The index in {@link #fields()} of the field whose events qualifier is {@code length} bytes at
   * {@code offset} (one of the field prefixes, then the column id's 8 bytes), or -1.
   */
  int fieldIndex(byte[] qualifier, int offset, int length) {
    for (int i = 0; i < fieldPrefixes.length; i++) {
      byte[] p = fieldPrefixes[i];
      if (length == p.length + 8
          && java.util.Arrays.equals(p, 0, p.length, qualifier, offset, offset + p.length)) {
        return i;
      }
    }
    return -1;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Behaviour b && b.id == id;
  }

  @Override
  public int hashCode() {
    return id;
  }

  @Override
  public String toString() {
    return label;
  }
}
