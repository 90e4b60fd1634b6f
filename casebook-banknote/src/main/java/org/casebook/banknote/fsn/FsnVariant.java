package org.casebook.banknote.fsn;

/**
 * The FSN layouts Casebook reads and writes: the 2014 format (32-byte header, 1,644-byte records,
 * 100 without images) and the 2018 format (350-byte header, 1,632-byte records, 88 without images).
 */
public enum FsnVariant {
  FSN2014(1, true, 32, 1644),
  FSN2014_NO_IMAGES(1, false, 32, 100),
  FSN2018(2, true, 350, 1632),
  FSN2018_NO_IMAGES(2, false, 350, 88);

  /** HeadString[2] of a file whose records carry serial images, and of one whose records do not. */
  static final int IMAGES_FLAG = 0x2E;

  static final int NO_IMAGES_FLAG = 0x2D;

  /** The image block: Num, height, width, reserve (u16 each), then 12 slots of 128 bytes. */
  public static final int IMAGE_BLOCK = 8 + 12 * 128;

  private final int version;
  private final boolean images;
  private final int headerBytes;
  private final int recordBytes;

  FsnVariant(int version, boolean images, int headerBytes, int recordBytes) {
    this.version = version;
    this.images = images;
    this.headerBytes = headerBytes;
    this.recordBytes = recordBytes;
  }

  /** HeadString[1]: 1 for the 2014 format, 2 for the 2018 format. */
  public int version() {
    return version;
  }

  public boolean images() {
    return images;
  }

  public int headerBytes() {
    return headerBytes;
  }

  public int recordBytes() {
    return recordBytes;
  }

  /** Where the image block starts in a record (= the record's length without images). */
  int imageOffset() {
    return version == 1 ? 100 : 88;
  }

  static FsnVariant of(int version, boolean images) {
    for (FsnVariant v : values()) {
      if (v.version == version && v.images == images) {
        return v;
      }
    }
    throw new IllegalArgumentException("no FSN variant " + version + "/" + images);
  }
}
