package org.casebook.trails;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The four behaviours of seed 000 and their fields. The id is part of the row key, so ids never
 * change once data is written.
 */
public enum Behaviour {
  LOGIN(1, List.of(Field.text("device"), Field.text("ip"))),
  PLAY(
      2,
      List.of(
          Field.text("contentId"),
          Field.text("channel"),
          Field.count("start"),
          Field.count("duration"))),
  VISIT(3, List.of(Field.text("page"), Field.text("column"))),
  ORDER(4, List.of(Field.text("product"), Field.money("price")));

  /**
   * A field's value kind: free text, a non-negative integer, or a non-negative amount with up to 2
   * decimals.
   */
  public enum Kind {
    TEXT,
    COUNT,
    MONEY
  }

  /** One field of a behaviour. */
  public record Field(String name, Kind kind) {
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

  private final int id;

  // An unmodifiable List.copyOf; the checker only trusts Guava's ImmutableList, not on the path.
  @SuppressWarnings("ImmutableEnumChecker")
  private final List<Field> fields;

  Behaviour(int id, List<Field> fields) {
    this.id = id;
    this.fields = List.copyOf(fields);
  }

  public int id() {
    return id;
  }

  /**
   * The name used in logs, URLs and JSON: {@code login}, {@code play}, {@code visit}, {@code
   * order}.
   */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  public List<Field> fields() {
    return fields;
  }

  public Optional<Field> field(String name) {
    return fields.stream().filter(f -> f.name().equals(name)).findFirst();
  }

  /**
   * The behaviour of a log line's exact (lower-case) label; user input goes through {@code
   * Enums.parse}.
   */
  public static Optional<Behaviour> byLabel(String label) {
    return Arrays.stream(values()).filter(b -> b.label().equals(label)).findFirst();
  }

  /** By id, for reading row keys (once per row read). */
  private static final Behaviour[] BY_ID = new Behaviour[256];

  static {
    for (Behaviour b : values()) {
      BY_ID[b.id] = b;
    }
  }

  static Behaviour byId(int id) {
    Behaviour b = id >= 0 && id < BY_ID.length ? BY_ID[id] : null;
    if (b == null) {
      throw new IllegalArgumentException("unknown behaviour id " + id);
    }
    return b;
  }
}
