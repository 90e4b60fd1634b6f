package org.casebook.weibo;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Cell encodings of a post's media: the images cell of a post row ({@code p:g}) and the outbox cell
 * that carries a whole post body ({@code o:}).
 *
 * <p>Images: a format byte (1), a count byte, then per image its reference, a flags byte (1 size
 * given, 2 alt given), width and height as ints and the alt text; texts are an int byte length and
 * UTF-8.
 *
 * <p>Outbox value: the content as UTF-8 alone for a post without title or images — as every outbox
 * cell was before titles and images existed, so those still read; otherwise a 0 byte (never the
 * first byte of content: it must not be empty and refuses control characters), a format byte (1),
 * the content, a title flag and title, and the images as above.
 */
final class PostCodec {
  private static final byte FORMAT = 1;
  private static final int HAS_SIZE = 1;
  private static final int HAS_ALT = 2;
  private static final byte WITH_MEDIA = 0;

  private PostCodec() {}

  static byte[] images(List<PostImage> images) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      writeImages(out, images);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }

  static List<PostImage> imagesOf(byte[] cell) {
    if (cell == null) {
      return List.of();
    }
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(cell))) {
      return readImages(in);
    } catch (IOException e) {
      throw new IllegalStateException("malformed images cell", e);
    }
  }

  static byte[] outboxValue(PostBody body) {
    if (!body.hasMedia()) {
      return body.content().getBytes(StandardCharsets.UTF_8);
    }
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.writeByte(WITH_MEDIA);
      out.writeByte(FORMAT);
      writeText(out, body.content());
      out.writeBoolean(body.title() != null);
      if (body.title() != null) {
        writeText(out, body.title());
      }
      writeImages(out, body.images());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }

  static PostBody outboxBodyOf(byte[] cell) {
    if (cell.length == 0 || cell[0] != WITH_MEDIA) {
      return PostBody.of(new String(cell, StandardCharsets.UTF_8));
    }
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(cell))) {
      in.readByte();
      checkFormat(in.readByte());
      String content = readText(in);
      String title = in.readBoolean() ? readText(in) : null;
      return new PostBody(content, title, readImages(in));
    } catch (IOException e) {
      throw new IllegalStateException("malformed outbox cell", e);
    }
  }

  private static void writeImages(DataOutputStream out, List<PostImage> images) throws IOException {
    out.writeByte(FORMAT);
    out.writeByte(images.size());
    for (PostImage image : images) {
      writeText(out, image.ref());
      boolean sized = image.width() != null && image.height() != null;
      out.writeByte((sized ? HAS_SIZE : 0) | (image.alt() != null ? HAS_ALT : 0));
      if (sized) {
        out.writeInt(image.width());
        out.writeInt(image.height());
      }
      if (image.alt() != null) {
        writeText(out, image.alt());
      }
    }
  }

  private static List<PostImage> readImages(DataInputStream in) throws IOException {
    checkFormat(in.readByte());
    int count = in.readUnsignedByte();
    List<PostImage> images = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      String ref = readText(in);
      int flags = in.readUnsignedByte();
      Integer width = null;
      Integer height = null;
      if ((flags & HAS_SIZE) != 0) {
        width = in.readInt();
        height = in.readInt();
      }
      String alt = (flags & HAS_ALT) != 0 ? readText(in) : null;
      images.add(new PostImage(ref, width, height, alt));
    }
    return List.copyOf(images);
  }

  private static void checkFormat(byte format) throws IOException {
    if (format != FORMAT) {
      throw new IOException("unknown format " + format);
    }
  }

  private static void writeText(DataOutputStream out, String text) throws IOException {
    byte[] b = text.getBytes(StandardCharsets.UTF_8);
    out.writeInt(b.length);
    out.write(b);
  }

  private static String readText(DataInputStream in) throws IOException {
    int length = in.readInt();
    if (length < 0 || length > in.available()) {
      throw new IOException("text of " + length + " bytes in a shorter cell");
    }
    byte[] b = new byte[length];
    in.readFully(b);
    return new String(b, StandardCharsets.UTF_8);
  }
}
