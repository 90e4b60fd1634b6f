package org.casebook.core.key;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * A row key (or qualifier) layout: typed parts in order, which both encodes and decodes. The stores
 * build and read their keys through it, and the worked examples in the module READMEs are printed
 * from it ({@link #explain}), so the documentation and the bytes cannot drift apart.
 *
 * <p>Parts are either given (the caller passes a value) or derived from another part (a salt
 * bucket, a hash prefix, a region identifier computed from, say, the user id). {@link #encode}
 * takes the given values in order; {@link #decode} returns them and checks the derived ones. Byte
 * order equals the declared order: numbers numerically, reverse timestamps newest first, strings by
 * code point (their UTF-8 byte order) and prefix-free, so {@code "1"} never matches {@code "10"}
 * and ids may contain any separator.
 */
public final class KeyLayout {
  /** The part types. */
  public enum PartType {
    /** One unsigned byte, 0..255 (an {@code Integer}). */
    BYTE,
    /** A signed int, order-preserving. */
    INT,
    /** A signed long, order-preserving. */
    LONG,
    /** {@code Long.MAX_VALUE - ts} for {@code ts >= 0}: newest first (a {@code Long}). */
    REVERSE_TIMESTAMP,
    /** UTF-8, escaped and terminated: order-preserving and prefix-free. */
    STRING,
    /** A string with its code points reversed, then as {@link #STRING}. */
    REVERSED_STRING,
    /** Raw bytes, escaped and terminated. */
    BYTES,
    /** Raw bytes of a fixed width (a hash given by the caller). */
    FIXED,
    /**
     * Raw bytes to the end of the key, unescaped: only as the last part (a run of fixed-width ids,
     * say). Byte order is its order.
     */
    TAIL,
    /** One byte in {@code [0, buckets)} derived from another part (MD5). */
    SALT,
    /** The first {@code width} bytes of the MD5 of another part. */
    HASH,
    /** A 2-byte region number in {@code [0, regions)}: derived from another part, or given. */
    REGION_ID
  }

  /**
   * One part. {@code size} is the bucket count (SALT), byte width (HASH, FIXED) or region count
   * (REGION_ID); {@code source} names the part a derived part is computed from, or is null.
   */
  public record Part(String name, PartType type, int size, String source) {
    public Part {
      Objects.requireNonNull(name, "name is null");
      Objects.requireNonNull(type, "type is null");
    }

    public boolean derived() {
      return source != null;
    }
  }

  private final String name;
  private final List<Part> parts;
  private final List<Part> given;
  private final Map<String, Integer> givenIndex;

  /** Per part: its index among the given parts, or -1 when derived (decoding reads these). */
  private final int[] givenSlot;

  /** Per part: the given index of the part it derives from, or -1 when given. */
  private final int[] sourceSlot;

  private KeyLayout(String name, List<Part> parts) {
    this.name = name;
    this.parts = List.copyOf(parts);
    List<Part> g = new ArrayList<>();
    Map<String, Integer> index = new HashMap<>();
    for (Part p : parts) {
      if (!p.derived()) {
        index.put(p.name(), g.size());
        g.add(p);
      }
    }
    this.given = List.copyOf(g);
    this.givenIndex = Map.copyOf(index);
    this.givenSlot = new int[parts.size()];
    this.sourceSlot = new int[parts.size()];
    for (int i = 0; i < parts.size(); i++) {
      Part p = parts.get(i);
      if (p.derived() && !givenIndex.containsKey(p.source())) {
        throw new IllegalArgumentException(
            name + ": part " + p.name() + " derives from unknown part " + p.source());
      }
      givenSlot[i] = p.derived() ? -1 : givenIndex.get(p.name());
      sourceSlot[i] = p.derived() ? givenIndex.get(p.source()) : -1;
    }
  }

  public static Builder named(String name) {
    return new Builder(name);
  }

  public String name() {
    return name;
  }

  public List<Part> parts() {
    return parts;
  }

  /** The parts a caller gives to {@link #encode}, in order. */
  public List<Part> givenParts() {
    return given;
  }

  /** The key of {@code values} (one per given part, in order). */
  public byte[] encode(Object... values) {
    if (values.length != given.size()) {
      throw new IllegalArgumentException(
          name + " takes " + given.size() + " value(s), got " + values.length);
    }
    return write(values, given.size()).build();
  }

  /**
   * The bytes every key starts with whose first {@code values.length} given parts are {@code
   * values} (derived parts in between included): with {@link KeyRange#prefix} a bounded scan of
   * exactly those keys.
   */
  public byte[] prefix(Object... values) {
    if (values.length > given.size()) {
      throw new IllegalArgumentException(name + " has only " + given.size() + " given part(s)");
    }
    return write(values, values.length).build();
  }

  /** {@code [prefix, successor of prefix)} for the leading given values. */
  public KeyRange range(Object... values) {
    return KeyRange.prefix(prefix(values));
  }

  private KeyBuilder write(Object[] values, int count) {
    KeyBuilder b = KeyBuilder.create(32);
    for (Part p : parts) {
      if (p.derived()) {
        int src = givenIndex.get(p.source());
        if (src >= count) {
          return b;
        }
        writeDerived(b, p, sourceBytes(values[src]));
      } else {
        int i = givenIndex.get(p.name());
        if (i >= count) {
          return b;
        }
        writeGiven(b, p, values[i]);
      }
    }
    return b;
  }

  private void writeGiven(KeyBuilder b, Part p, Object v) {
    Objects.requireNonNull(v, () -> name + ": value of " + p.name() + " is null");
    try {
      switch (p.type()) {
        case BYTE -> b.addByte((Integer) v);
        case INT -> b.addInt((Integer) v);
        case LONG -> b.addLong(((Number) v).longValue());
        case REVERSE_TIMESTAMP -> b.addReverseTimestamp(((Number) v).longValue());
        case STRING -> b.addString((String) v);
        case REVERSED_STRING -> b.addReversedString((String) v);
        case BYTES -> b.addBytes((byte[]) v);
        case TAIL -> b.addFixed((byte[]) v);
        case FIXED -> {
          byte[] f = (byte[]) v;
          if (f.length != p.size()) {
            throw new IllegalArgumentException(
                name + ": " + p.name() + " must be " + p.size() + " bytes");
          }
          b.addFixed(f);
        }
        case REGION_ID -> b.addRegionId((Integer) v, p.size());
        case SALT, HASH -> throw new IllegalStateException(p.type() + " parts are derived");
      }
    } catch (ClassCastException e) {
      throw new IllegalArgumentException(
          name
              + ": "
              + p.name()
              + " ("
              + p.type()
              + ") cannot take a "
              + v.getClass().getSimpleName(),
          e);
    }
  }

  private static void writeDerived(KeyBuilder b, Part p, byte[] source) {
    switch (p.type()) {
      case SALT -> b.addSalt(p.size(), source);
      case HASH -> b.addHashPrefix(p.size(), source);
      case REGION_ID -> b.addRegionId(Hashing.region(source, p.size()), p.size());
      default -> throw new IllegalStateException(p.type() + " cannot be derived");
    }
  }

  /** The bytes a derived part hashes: UTF-8 of a string, big-endian bytes of a number. */
  static byte[] sourceBytes(Object v) {
    if (v instanceof String s) {
      return s.getBytes(StandardCharsets.UTF_8);
    }
    if (v instanceof Long l) {
      return Bytes.toBytes(l);
    }
    if (v instanceof Integer i) {
      return Bytes.toBytes(i);
    }
    if (v instanceof byte[] bytes) {
      return bytes;
    }
    throw new IllegalArgumentException(
        "cannot derive a key part from a " + v.getClass().getSimpleName());
  }

  /** Decodes a whole key; derived parts are checked against their sources. */
  public Key decode(byte[] key) {
    return decode(key, 0, key.length);
  }

  public Key decode(byte[] key, int offset, int length) {
    KeyReader r = new KeyReader(key, offset, length);
    Object[] all = new Object[parts.size()];
    for (int i = 0; i < parts.size(); i++) {
      Part p = parts.get(i);
      all[i] =
          switch (p.type()) {
            case BYTE, SALT -> r.readByte();
            case INT -> r.readInt();
            case LONG -> r.readLong();
            case REVERSE_TIMESTAMP -> r.readReverseTimestamp();
            case STRING -> r.readString();
            case REVERSED_STRING -> r.readReversedString();
            case BYTES -> r.readBytes();
            case TAIL -> r.readFixed(r.remaining());
            case FIXED, HASH -> r.readFixed(p.size());
            case REGION_ID -> r.readRegionId();
          };
    }
    if (r.hasRemaining()) {
      throw new IllegalArgumentException(
          "key has " + r.remaining() + " byte(s) after the last part of " + name);
    }
    Object[] values = new Object[given.size()];
    for (int i = 0; i < parts.size(); i++) {
      if (givenSlot[i] >= 0) {
        values[givenSlot[i]] = all[i];
      }
    }
    for (int i = 0; i < parts.size(); i++) {
      Part p = parts.get(i);
      if (p.derived()) {
        KeyBuilder expected = KeyBuilder.create(4);
        writeDerived(expected, p, sourceBytes(values[sourceSlot[i]]));
        KeyBuilder actual = KeyBuilder.create(4);
        if (all[i] instanceof byte[] b) {
          actual.addFixed(b);
        } else if (p.type() == PartType.REGION_ID) {
          actual.addRegionId((Integer) all[i], p.size());
        } else {
          actual.addByte((Integer) all[i]);
        }
        if (!Arrays.equals(expected.build(), actual.build())) {
          throw new IllegalArgumentException(
              name + ": " + p.name() + " does not match " + p.source());
        }
      }
    }
    return new Key(this, Collections.unmodifiableList(Arrays.asList(values)));
  }

  /** {@code name=value} pairs of the given parts, for humans and logs. */
  public String describe(byte[] key) {
    Key k = decode(key);
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < given.size(); i++) {
      sb.append(i > 0 ? ", " : "")
          .append(given.get(i).name())
          .append('=')
          .append(show(k.values().get(i)));
    }
    return sb.toString();
  }

  /**
   * The worked example of a key: its bytes in hex, one group per part, e.g. {@code 62 6F 62 00 01 |
   * 01 | 61 6C 69 63 65 00 01}. READMEs print their examples with this.
   */
  public String explain(Object... values) {
    byte[] key = encode(values);
    KeyReader r = new KeyReader(key);
    StringBuilder sb = new StringBuilder();
    for (Part p : parts) {
      int start = r.position();
      switch (p.type()) {
        case BYTE, SALT -> r.skip(1);
        case INT -> r.skip(4);
        case LONG, REVERSE_TIMESTAMP -> r.skip(8);
        case STRING, REVERSED_STRING, BYTES -> r.skipBytes();
        case FIXED, HASH -> r.skip(p.size());
        case TAIL -> r.skip(r.remaining());
        case REGION_ID -> r.skip(2);
      }
      if (sb.length() > 0) {
        sb.append(" | ");
      }
      for (int i = start; i < r.position(); i++) {
        sb.append(i > start ? " " : "").append(String.format(Locale.ROOT, "%02X", key[i] & 0xFF));
      }
    }
    return sb.toString();
  }

  /**
   * A one-line description, e.g. {@code uid:string | ts:reverse_timestamp | bucket:salt(8, uid)}.
   */
  public String shape() {
    StringBuilder sb = new StringBuilder();
    for (Part p : parts) {
      if (sb.length() > 0) {
        sb.append(" | ");
      }
      sb.append(p.name()).append(':').append(p.type().name().toLowerCase(Locale.ROOT));
      switch (p.type()) {
        case SALT, HASH, REGION_ID, FIXED ->
            sb.append('(')
                .append(p.size())
                .append(p.derived() ? ", " + p.source() : "")
                .append(')');
        default -> {}
      }
    }
    return sb.toString();
  }

  /**
   * The declared order of value tuples (given parts, in order), which byte order of the encoded
   * keys must equal; derived parts come first where the layout puts them.
   */
  public Comparator<List<Object>> declaredOrder() {
    return (a, b) -> {
      for (Part p : parts) {
        int c;
        if (p.derived()) {
          KeyBuilder x = KeyBuilder.create(4);
          KeyBuilder y = KeyBuilder.create(4);
          writeDerived(x, p, sourceBytes(a.get(givenIndex.get(p.source()))));
          writeDerived(y, p, sourceBytes(b.get(givenIndex.get(p.source()))));
          c = Bytes.compareTo(x.build(), y.build());
        } else {
          int i = givenIndex.get(p.name());
          c = compareValues(p.type(), a.get(i), b.get(i));
        }
        if (c != 0) {
          return c;
        }
      }
      return 0;
    };
  }

  private static int compareValues(PartType type, Object x, Object y) {
    return switch (type) {
      case BYTE, INT, REGION_ID -> Integer.compare((Integer) x, (Integer) y);
      case LONG -> Long.compare((Long) x, (Long) y);
      case REVERSE_TIMESTAMP -> Long.compare((Long) y, (Long) x);
      case STRING -> codePointOrder((String) x, (String) y);
      case REVERSED_STRING ->
          codePointOrder(KeyBuilder.reverse((String) x), KeyBuilder.reverse((String) y));
      case BYTES, FIXED, HASH, TAIL -> Bytes.compareTo((byte[]) x, (byte[]) y);
      case SALT -> throw new IllegalStateException("salt is derived");
    };
  }

  private static int codePointOrder(String a, String b) {
    int i = 0;
    int j = 0;
    while (i < a.length() && j < b.length()) {
      int ca = a.codePointAt(i);
      int cb = b.codePointAt(j);
      if (ca != cb) {
        return Integer.compare(ca, cb);
      }
      i += Character.charCount(ca);
      j += Character.charCount(cb);
    }
    return Integer.compare(a.length() - i, b.length() - j);
  }

  private static String show(Object v) {
    return v instanceof byte[] b ? Bytes.toHex(b) : String.valueOf(v);
  }

  @Override
  public String toString() {
    return name + " (" + shape() + ")";
  }

  /** A decoded key: the given parts' values, by position or by name. */
  public static final class Key {
    private final KeyLayout layout;
    private final List<Object> values;

    Key(KeyLayout layout, List<Object> values) {
      this.layout = layout;
      this.values = values;
    }

    /** The given parts' values in order (String, Integer, Long or byte[]). */
    public List<Object> values() {
      return values;
    }

    public Object get(String part) {
      Integer i = layout.givenIndex.get(part);
      if (i == null) {
        throw new IllegalArgumentException(layout.name + " has no given part " + part);
      }
      return values.get(i);
    }

    public String string(String part) {
      return (String) get(part);
    }

    public long number(String part) {
      return ((Number) get(part)).longValue();
    }

    public int integer(String part) {
      return ((Number) get(part)).intValue();
    }
  }

  /** Builds a {@link KeyLayout}. */
  public static final class Builder {
    private final String name;
    private final List<Part> parts = new ArrayList<>();

    private Builder(String name) {
      this.name = Objects.requireNonNull(name, "name is null");
    }

    /**
     * A given part of a type with no size: BYTE, INT, LONG, REVERSE_TIMESTAMP, STRING,
     * REVERSED_STRING, BYTES, TAIL (last part only).
     */
    public Builder part(String partName, PartType type) {
      switch (type) {
        case SALT, HASH, REGION_ID, FIXED ->
            throw new IllegalArgumentException(
                "use the "
                    + type.name().toLowerCase(Locale.ROOT)
                    + "(…) method for "
                    + type
                    + " parts");
        default -> {}
      }
      return add(new Part(partName, type, 0, null));
    }

    /** Raw bytes of a fixed width, given by the caller. */
    public Builder fixed(String partName, int width) {
      check(width >= 1 && width <= 64, "fixed width must be 1..64");
      return add(new Part(partName, PartType.FIXED, width, null));
    }

    /** A salt bucket {@code [0, buckets)} from the MD5 of {@code source}. */
    public Builder salt(String partName, int buckets, String source) {
      check(buckets >= 1 && buckets <= 256, "buckets must be 1..256");
      return add(
          new Part(
              partName, PartType.SALT, buckets, Objects.requireNonNull(source, "source is null")));
    }

    /** The first {@code width} bytes of the MD5 of {@code source}. */
    public Builder hash(String partName, int width, String source) {
      check(width >= 1 && width <= 16, "hash width must be 1..16");
      return add(
          new Part(
              partName, PartType.HASH, width, Objects.requireNonNull(source, "source is null")));
    }

    /**
     * A region identifier in {@code [0, regions)}: MD5 of {@code source} mod regions, or given if
     * source is null.
     */
    public Builder regionId(String partName, int regions, String source) {
      check(regions >= 1 && regions <= 65536, "regions must be 1..65536");
      return add(new Part(partName, PartType.REGION_ID, regions, source));
    }

    private Builder add(Part p) {
      for (Part q : parts) {
        check(!q.name().equals(p.name()), "part " + p.name() + " declared twice");
      }
      parts.add(p);
      return this;
    }

    private void check(boolean ok, String message) {
      if (!ok) {
        throw new IllegalArgumentException(name + ": " + message);
      }
    }

    public KeyLayout build() {
      check(!parts.isEmpty(), "a key layout needs at least one part");
      for (int i = 0; i < parts.size() - 1; i++) {
        check(parts.get(i).type() != PartType.TAIL, "a tail part must be the last part");
      }
      return new KeyLayout(name, parts);
    }
  }
}
