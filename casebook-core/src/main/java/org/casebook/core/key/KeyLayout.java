package org.casebook.core.key;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * A declared key layout: the typed parts of a row key, in order. Systems use it to document and
 * decode their keys (the {@code schema} and {@code hotspot} commands print keys through it);
 * hot paths use {@link KeyBuilder} and {@link KeyReader} directly.
 */
public final class KeyLayout {
  /** The part types, with how many bytes each takes when fixed. */
  public enum PartType {
    BYTE(1), INT(4), LONG(8), REVERSE_TIMESTAMP(8), STRING(-1), REVERSED_STRING(-1), SALT(1), HASH(-1), BYTES(-1),
    REGION_ID(2);

    private final int width;

    PartType(int width) {
      this.width = width;
    }
  }

  /** One named part; {@code width} matters only for {@link PartType#HASH}. */
  public record Part(String name, PartType type, int width) {
    public Part {
      Objects.requireNonNull(name, "name is null");
      Objects.requireNonNull(type, "type is null");
      if (type == PartType.HASH && (width < 1 || width > 16)) {
        throw new IllegalArgumentException("hash width must be 1..16");
      }
    }
  }

  private final String name;
  private final List<Part> parts;

  private KeyLayout(String name, List<Part> parts) {
    this.name = name;
    this.parts = List.copyOf(parts);
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

  /** Decodes every part of {@code key}, in order (strings as String, numbers as Long/Integer, bytes as hex). */
  public List<Object> decode(byte[] key) {
    KeyReader r = new KeyReader(key);
    List<Object> values = new ArrayList<>(parts.size());
    for (Part p : parts) {
      values.add(switch (p.type()) {
        case BYTE, SALT -> r.readByte();
        case INT -> r.readInt();
        case LONG -> r.readLong();
        case REVERSE_TIMESTAMP -> r.readReverseTimestamp();
        case STRING -> r.readString();
        case REVERSED_STRING -> r.readReversedString();
        case HASH -> Bytes.toHex(r.readFixed(p.width()));
        case BYTES -> Bytes.toStringBinary(r.readBytes());
        case REGION_ID -> r.readRegionId();
      });
    }
    if (r.hasRemaining()) {
      throw new IllegalArgumentException("key has " + r.remaining() + " byte(s) after the last part of " + name);
    }
    return values;
  }

  /** {@code name=value} pairs, for humans. */
  public String describe(byte[] key) {
    List<Object> values = decode(key);
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < parts.size(); i++) {
      if (i > 0) {
        sb.append(", ");
      }
      sb.append(parts.get(i).name()).append('=').append(values.get(i));
    }
    return sb.toString();
  }

  /** A one-line description of the layout, e.g. {@code uid:string | ts:reverse_timestamp}. */
  public String shape() {
    StringBuilder sb = new StringBuilder();
    for (Part p : parts) {
      if (sb.length() > 0) {
        sb.append(" | ");
      }
      sb.append(p.name()).append(':').append(p.type().name().toLowerCase(java.util.Locale.ROOT));
      if (p.type() == PartType.HASH) {
        sb.append('(').append(p.width()).append(')');
      }
    }
    return sb.toString();
  }

  /** Printable form of any key, for logs: UTF-8 where printable, hex escapes elsewhere. */
  public static String printable(byte[] key) {
    return Bytes.toStringBinary(key);
  }

  /** Builds a {@link KeyLayout}. */
  public static final class Builder {
    private final String name;
    private final List<Part> parts = new ArrayList<>();

    private Builder(String name) {
      this.name = Objects.requireNonNull(name, "name is null");
    }

    public Builder part(String partName, PartType type) {
      if (type == PartType.HASH) {
        throw new IllegalArgumentException("use hash(name, width) for hash parts");
      }
      parts.add(new Part(partName, type, type.width));
      return this;
    }

    public Builder hash(String partName, int width) {
      parts.add(new Part(partName, PartType.HASH, width));
      return this;
    }

    public KeyLayout build() {
      if (parts.isEmpty()) {
        throw new IllegalArgumentException("a key layout needs at least one part");
      }
      return new KeyLayout(name, parts);
    }
  }
}
