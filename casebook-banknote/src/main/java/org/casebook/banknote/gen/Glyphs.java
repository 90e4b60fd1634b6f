package org.casebook.banknote.gen;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Serial images in FSN's layout, drawn from a 5×7 font scaled four times (20×28 pixels centred in a
 * 32×32 cell): the block header (Num, height, width, reserve) and one 128-byte slot a character —
 * 32 little-endian u32 words, one per pixel column, bit 31 the top row, 1 = ink.
 */
final class Glyphs {
  private static final String CHARS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_";

  /** Rows of each character, 5 bits each (bit 4 = leftmost column). */
  private static final int[][] FONT = {
    {14, 17, 19, 21, 25, 17, 14}, // 0
    {4, 12, 4, 4, 4, 4, 14}, // 1
    {14, 17, 1, 2, 4, 8, 31}, // 2
    {31, 2, 4, 2, 1, 17, 14}, // 3
    {2, 6, 10, 18, 31, 2, 2}, // 4
    {31, 16, 30, 1, 1, 17, 14}, // 5
    {6, 8, 16, 30, 17, 17, 14}, // 6
    {31, 1, 2, 4, 8, 8, 8}, // 7
    {14, 17, 17, 14, 17, 17, 14}, // 8
    {14, 17, 17, 15, 1, 2, 12}, // 9
    {14, 17, 17, 31, 17, 17, 17}, // A
    {30, 17, 17, 30, 17, 17, 30}, // B
    {14, 17, 16, 16, 16, 17, 14}, // C
    {28, 18, 17, 17, 17, 18, 28}, // D
    {31, 16, 16, 30, 16, 16, 31}, // E
    {31, 16, 16, 30, 16, 16, 16}, // F
    {14, 17, 16, 23, 17, 17, 15}, // G
    {17, 17, 17, 31, 17, 17, 17}, // H
    {14, 4, 4, 4, 4, 4, 14}, // I
    {7, 2, 2, 2, 2, 18, 12}, // J
    {17, 18, 20, 24, 20, 18, 17}, // K
    {16, 16, 16, 16, 16, 16, 31}, // L
    {17, 27, 21, 21, 17, 17, 17}, // M
    {17, 17, 25, 21, 19, 17, 17}, // N
    {14, 17, 17, 17, 17, 17, 14}, // O
    {30, 17, 17, 30, 16, 16, 16}, // P
    {14, 17, 17, 17, 21, 18, 13}, // Q
    {30, 17, 17, 30, 20, 18, 17}, // R
    {15, 16, 16, 14, 1, 1, 30}, // S
    {31, 4, 4, 4, 4, 4, 4}, // T
    {17, 17, 17, 17, 17, 17, 14}, // U
    {17, 17, 17, 17, 17, 10, 4}, // V
    {17, 17, 17, 21, 21, 21, 10}, // W
    {17, 17, 10, 4, 10, 17, 17}, // X
    {17, 17, 10, 4, 4, 4, 4}, // Y
    {31, 1, 2, 4, 8, 16, 31}, // Z
    {0, 0, 0, 0, 0, 0, 31}, // _
  };

  private static final int SCALE = 4;
  private static final int LEFT = (32 - 5 * SCALE) / 2;
  private static final int TOP = (32 - 7 * SCALE) / 2;

  private Glyphs() {}

  /** The image block of {@code serial}: 8 header bytes and 128 bytes per character. */
  static byte[] image(String serial) {
    int n = serial.length();
    ByteBuffer b = ByteBuffer.allocate(8 + n * 128).order(ByteOrder.LITTLE_ENDIAN);
    b.putShort((short) n).putShort((short) 32).putShort((short) 32).putShort((short) 0);
    for (int i = 0; i < n; i++) {
      int index = CHARS.indexOf(serial.charAt(i));
      int[] rows = index < 0 ? null : FONT[index];
      for (int x = 0; x < 32; x++) {
        int word = 0;
        for (int y = 0; y < 32; y++) {
          if (ink(rows, x, y)) {
            word |= 1 << (31 - y);
          }
        }
        b.putInt(word);
      }
    }
    return b.array();
  }

  /** Whether pixel (x, y) of a character cell is ink; an unknown character is a hollow box. */
  private static boolean ink(int[] rows, int x, int y) {
    int fx = x - LEFT;
    int fy = y - TOP;
    if (fx < 0 || fy < 0 || fx >= 5 * SCALE || fy >= 7 * SCALE) {
      return false;
    }
    int col = fx / SCALE;
    int row = fy / SCALE;
    if (rows == null) {
      return row == 0 || row == 6 || col == 0 || col == 4;
    }
    return (rows[row] >> (4 - col) & 1) == 1;
  }
}
