package org.casebook.banknote.fsn;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * An FSN serial-number file: {@link #parse} checks the whole structure first (magic, format
 * version, record count against the file size) and refuses a malformed file as a whole; {@link
 * #bytes} writes one. Every multi-byte field is little-endian; text is one u16 per character.
 * Offsets are explicit (no struct copies: the 2018 record's fields are not where a padded struct
 * would put them).
 */
public record FsnFile(FsnHeader header, List<FsnRecord> records) {
  private static final int[] HEAD_START = {20, 10, 7, 26};
  private static final int[] HEAD_END = {0, 1, 2, 3};
  private static final int[] SNO_MARK = {'S', 'N', 'o'};

  /** The largest file read (a sorter's file holds a few thousand records, 1,644 bytes each). */
  public static final int MAX_BYTES = 256 << 20;

  public FsnFile {
    Objects.requireNonNull(header, "header is null");
    records = List.copyOf(records);
  }

  public FsnVariant variant() {
    return header.variant();
  }

  /** Parses a whole file, or says why it is not a well-formed FSN file. */
  public static FsnFile parse(byte[] file) throws FsnFormatException {
    ByteBuffer b = ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN);
    if (file.length < 32) {
      throw new FsnFormatException(
          "wrong header: " + file.length + " bytes, shorter than the 32-byte FSN header");
    }
    for (int i = 0; i < 4; i++) {
      if (u16(b, i * 2) != HEAD_START[i]) {
        throw new FsnFormatException(
            "wrong header: HeadStart is "
                + u16(b, 0)
                + ","
                + u16(b, 2)
                + ","
                + u16(b, 4)
                + ","
                + u16(b, 6)
                + ", expected 20,10,7,26");
      }
    }
    for (int i = 0; i < 3; i++) {
      if (u16(b, 14 + i * 2) != SNO_MARK[i]) {
        throw new FsnFormatException("wrong header: HeadString does not end in 'SNo'");
      }
    }
    int version = u16(b, 10);
    if (version != 1 && version != 2) {
      throw new FsnFormatException(
          "wrong header: format version (HeadString[1]) is " + version + ", expected 1 or 2");
    }
    int imageFlag = u16(b, 12);
    FsnVariant withImages = FsnVariant.of(version, true);
    FsnVariant withoutImages = FsnVariant.of(version, false);
    int headerBytes = withImages.headerBytes();
    if (file.length < headerBytes) {
      throw new FsnFormatException(
          "wrong header: "
              + file.length
              + " bytes, shorter than the "
              + headerBytes
              + "-byte header of format version "
              + version);
    }
    int endAt = version == 1 ? 24 : 342;
    for (int i = 0; i < 4; i++) {
      if (u16(b, endAt + i * 2) != HEAD_END[i]) {
        throw new FsnFormatException("wrong header: HeadEnd is not 0,1,2,3");
      }
    }
    long count = Integer.toUnsignedLong(b.getInt(version == 1 ? 20 : 22));
    long body = file.length - (long) headerBytes;
    // The flag says whether records carry images; the file size must agree (one writer is known
    // to put 0x2F there, so anything but 0x2D is read as "with images" and checked).
    FsnVariant variant = imageFlag == FsnVariant.NO_IMAGES_FLAG ? withoutImages : withImages;
    if (body != count * variant.recordBytes()) {
      FsnVariant other = variant == withImages ? withoutImages : withImages;
      if (count > 0 && body == count * other.recordBytes()) {
        throw new FsnFormatException(
            "impossible count: the image flag (0x"
                + Integer.toHexString(imageFlag)
                + ") says "
                + variant.recordBytes()
                + "-byte records, but the size fits "
                + count
                + " records of "
                + other.recordBytes());
      }
      long whole = body / variant.recordBytes();
      long rest = body % variant.recordBytes();
      if (rest != 0 && count == whole + 1) {
        throw new FsnFormatException(
            "truncated record: record "
                + whole
                + " has "
                + rest
                + " of its "
                + variant.recordBytes()
                + " bytes");
      }
      throw new FsnFormatException(
          "impossible count: the header says "
              + count
              + " records, the file holds "
              + whole
              + (rest == 0 ? "" : " and " + rest + " bytes of a truncated record"));
    }
    FsnHeader header =
        version == 1
            ? FsnHeader.of(variant)
            : new FsnHeader(
                variant, text(b, 26, 6), text(b, 42, 24), text(b, 90, 15), text(b, 304, 14));
    List<FsnRecord> records = new ArrayList<>((int) count);
    for (int i = 0; i < count; i++) {
      records.add(record(b, headerBytes + i * variant.recordBytes(), variant));
    }
    return new FsnFile(header, records);
  }

  /**
   * A record-aligned piece of a well-formed file ({@link #parse} accepted it): the file's own
   * header with its record count set to {@code count}, then records {@code from} to {@code from +
   * count - 1} as they are in the file. The piece is itself a well-formed FSN file, which is what
   * the agent uploads.
   */
  public static byte[] chunk(byte[] file, int from, int count) {
    FsnVariant v = layout(file);
    long records = (file.length - (long) v.headerBytes()) / v.recordBytes();
    if (from < 0 || count < 0 || from + (long) count > records) {
      throw new IllegalArgumentException(
          "records " + from + ".." + (from + count) + " are not in a file of " + records);
    }
    byte[] out = new byte[v.headerBytes() + count * v.recordBytes()];
    System.arraycopy(file, 0, out, 0, v.headerBytes());
    ByteBuffer o = ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN);
    o.putInt(v.version() == 1 ? 20 : 22, count);
    System.arraycopy(
        file,
        v.headerBytes() + from * v.recordBytes(),
        out,
        v.headerBytes(),
        count * v.recordBytes());
    return out;
  }

  /** The variant (header and record sizes) of a file {@link #parse} accepted. */
  public static FsnVariant layout(byte[] file) {
    ByteBuffer b = ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN);
    return FsnVariant.of(u16(b, 10), u16(b, 12) != FsnVariant.NO_IMAGES_FLAG);
  }

  private static FsnRecord record(ByteBuffer b, int at, FsnVariant v) {
    int[] errors = {u16(b, at + 6), u16(b, at + 8), u16(b, at + 10)};
    String currency = text(b, at + 12, 4);
    int edition = u16(b, at + 20);
    boolean v2014 = v.version() == 1;
    long denomination = v2014 ? u16(b, at + 22) : b.getLong(at + 22);
    int charCount = u16(b, at + (v2014 ? 24 : 30));
    int serialAt = at + (v2014 ? 26 : 32);
    int[] serial = new int[Math.min(Math.max(charCount, 0), 12)];
    for (int i = 0; i < serial.length; i++) {
      serial[i] = u16(b, serialAt + i * 2);
    }
    String machine = v2014 ? text(b, at + 50, 24) : "";
    int reserve1 = v2014 ? u16(b, at + 98) : 0;
    byte[] image = null;
    if (v.images()) {
      int imageAt = at + v.imageOffset();
      int num = Math.min(Math.max((short) u16(b, imageAt), 0), 12);
      if (num > 0) {
        image = new byte[8 + num * 128];
        b.get(imageAt, image, 0, image.length);
      }
    }
    return new FsnRecord(
        u16(b, at),
        u16(b, at + 2),
        u16(b, at + 4),
        errors,
        currency,
        edition,
        denomination,
        charCount,
        serial,
        machine,
        reserve1,
        image);
  }

  /** The file's bytes in its variant's layout (records' images padded to the 1,544-byte block). */
  public byte[] bytes() {
    FsnVariant v = header.variant();
    ByteBuffer b =
        ByteBuffer.allocate(v.headerBytes() + records.size() * v.recordBytes())
            .order(ByteOrder.LITTLE_ENDIAN);
    for (int i = 0; i < 4; i++) {
      b.putShort(i * 2, (short) HEAD_START[i]);
    }
    b.putShort(8, (short) 0);
    b.putShort(10, (short) v.version());
    b.putShort(12, (short) (v.images() ? FsnVariant.IMAGES_FLAG : FsnVariant.NO_IMAGES_FLAG));
    for (int i = 0; i < 3; i++) {
      b.putShort(14 + i * 2, (short) SNO_MARK[i]);
    }
    int endAt;
    if (v.version() == 1) {
      b.putInt(20, records.size());
      endAt = 24;
    } else {
      b.putShort(20, (short) 1); // HeadDataTypeFlag: text as u16 per character
      b.putInt(22, records.size());
      putText(b, 26, 6, header.bank());
      putText(b, 42, 24, header.machine());
      putText(b, 90, 15, header.machineType());
      putText(b, 304, 14, header.branch());
      endAt = 342;
    }
    for (int i = 0; i < 4; i++) {
      b.putShort(endAt + i * 2, (short) HEAD_END[i]);
    }
    for (int i = 0; i < records.size(); i++) {
      write(b, v.headerBytes() + i * v.recordBytes(), v, records.get(i));
    }
    return b.array();
  }

  private static void write(ByteBuffer b, int at, FsnVariant v, FsnRecord r) {
    boolean v2014 = v.version() == 1;
    b.putShort(at, (short) r.date());
    b.putShort(at + 2, (short) r.time());
    b.putShort(at + 4, (short) r.tfFlag());
    int[] errors = r.errorCodes();
    for (int i = 0; i < 3; i++) {
      b.putShort(at + 6 + i * 2, (short) (i < errors.length ? errors[i] : 0));
    }
    putText(b, at + 12, 4, r.currency());
    b.putShort(at + 20, (short) r.edition());
    if (v2014) {
      b.putShort(at + 22, (short) r.denomination());
    } else {
      b.putLong(at + 22, r.denomination());
    }
    b.putShort(at + (v2014 ? 24 : 30), (short) r.charCount());
    int[] serial = r.serial();
    int serialAt = at + (v2014 ? 26 : 32);
    for (int i = 0; i < Math.min(serial.length, 12); i++) {
      b.putShort(serialAt + i * 2, (short) serial[i]);
    }
    if (v2014) {
      putText(b, at + 50, 24, r.machine());
      b.putShort(at + 98, (short) r.reserve1());
    }
    byte[] image = r.image();
    if (v.images() && image != null) {
      b.put(at + v.imageOffset(), image, 0, Math.min(image.length, FsnVariant.IMAGE_BLOCK));
    }
  }

  private static int u16(ByteBuffer b, int at) {
    return Short.toUnsignedInt(b.getShort(at));
  }

  /** u16-per-character text up to the first 0 (characters above 0xFF kept as they are). */
  private static String text(ByteBuffer b, int at, int chars) {
    StringBuilder sb = new StringBuilder(chars);
    for (int i = 0; i < chars; i++) {
      int c = u16(b, at + i * 2);
      if (c == 0) {
        break;
      }
      sb.append((char) c);
    }
    return sb.toString();
  }

  private static void putText(ByteBuffer b, int at, int chars, String s) {
    for (int i = 0; i < Math.min(chars, s.length()); i++) {
      b.putShort(at + i * 2, (short) s.charAt(i));
    }
  }
}
