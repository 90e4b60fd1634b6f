package org.casebook.banknote;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.casebook.banknote.fsn.FsnFile;
import org.casebook.banknote.fsn.FsnFormatException;
import org.casebook.core.InvalidInputException;
import org.casebook.core.Json;
import org.casebook.core.LocalFileException;

/**
 * Reads a device file whole — FSN ({@code .fsn}, any case) or JSON lines ({@code .jsonl}) — into
 * its valid notes and its rejected records. A malformed file is refused as a whole ({@link
 * FileRejectedException}), so it is never half-imported.
 */
public final class NoteFiles {
  /** The longest JSON line read (a note with an image is about 2 KB). */
  static final int MAX_LINE = 64 * 1024;

  private NoteFiles() {}

  /** Whether the agent and the import read files with this name. */
  public static boolean readable(String fileName) {
    String n = fileName.toLowerCase(Locale.ROOT);
    return n.endsWith(".fsn") || n.endsWith(".jsonl");
  }

  public static ParsedFile read(Path file, FileContext context) throws FileRejectedException {
    return parse(file.getFileName().toString(), bytes(file), context);
  }

  /** The content of a device file, refused if larger than a file is read. */
  public static byte[] bytes(Path file) throws FileRejectedException {
    long size;
    try {
      size = Files.size(file);
    } catch (IOException e) {
      throw LocalFileException.of("read", file, e);
    }
    if (size > FsnFile.MAX_BYTES) {
      throw new FileRejectedException(
          "the file has " + size + " bytes; at most " + FsnFile.MAX_BYTES + " are read");
    }
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(file);
    } catch (IOException e) {
      throw LocalFileException.of("read", file, e);
    }
    return bytes;
  }

  /** Parses the content of the file named {@code name}. */
  public static ParsedFile parse(String name, byte[] content, FileContext context)
      throws FileRejectedException {
    String lower = name.toLowerCase(Locale.ROOT);
    if (lower.endsWith(".fsn")) {
      FsnFile fsn;
      try {
        fsn = FsnFile.parse(content);
      } catch (FsnFormatException e) {
        throw new FileRejectedException(e.getMessage());
      }
      return FsnNotes.notes(name, fsn, context);
    }
    if (lower.endsWith(".jsonl")) {
      return jsonLines(name, content, context);
    }
    throw new FileRejectedException(
        "unknown file type: expected an FSN file (.fsn) or JSON lines (.jsonl)");
  }

  /**
   * A piece of an FSN file as the agent uploads it (the file's header, its record count set to the
   * piece's, and a run of its records) whose first record is record {@code first} of {@code
   * source}. Malformed bytes are refused whole (field {@code body}), as is a piece of more than
   * {@code maxRecords}; records breaking a rule are rejected as in a whole file.
   */
  public static ParsedFile fsnPiece(
      String source, long first, byte[] content, FileContext context, int maxRecords)
      throws FileRejectedException {
    FsnFile fsn;
    try {
      fsn = FsnFile.parse(content);
    } catch (FsnFormatException e) {
      throw new FileRejectedException("body", e.getMessage());
    }
    if (fsn.records().size() > maxRecords) {
      throw new FileRejectedException(
          "body",
          "impossible count: the piece holds "
              + fsn.records().size()
              + " records; at most "
              + maxRecords
              + " are taken at once");
    }
    return FsnNotes.notes(source, first, fsn, context);
  }

  private static ParsedFile jsonLines(String name, byte[] content, FileContext context) {
    FsnNotes.NameParts parts = FsnNotes.nameParts(name);
    List<Note> notes = new ArrayList<>();
    List<Reject> rejects = new ArrayList<>();
    int line = 0;
    int start = 0;
    while (start < content.length) {
      int end = start;
      while (end < content.length && content[end] != '\n') {
        end++;
      }
      int stop = end > start && content[end - 1] == '\r' ? end - 1 : end;
      if (stop > start) {
        try {
          notes.add(line(name, line, content, start, stop - start, parts, context));
        } catch (InvalidInputException e) {
          rejects.add(new Reject(line, e.field(), e.getMessage()));
        }
      }
      line++;
      start = end + 1;
    }
    return new ParsedFile(name, "jsonl", notes, rejects);
  }

  private static Note line(
      String source,
      long number,
      byte[] content,
      int from,
      int length,
      FsnNotes.NameParts parts,
      FileContext context) {
    InvalidInputException.check(
        length <= MAX_LINE, "line", "the line has " + length + " bytes; at most " + MAX_LINE);
    try {
      StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(content, from, length));
    } catch (CharacterCodingException e) {
      throw new InvalidInputException("line", "the line is not UTF-8");
    }
    NoteJson j;
    try {
      j = Json.mapper().readValue(content, from, length, NoteJson.class);
    } catch (UnrecognizedPropertyException e) {
      throw new InvalidInputException(
          e.getPropertyName(), "unknown field '" + e.getPropertyName() + "'");
    } catch (JsonProcessingException e) {
      throw new InvalidInputException("line", "not a note as JSON: " + e.getOriginalMessage());
    } catch (IOException e) {
      throw new InvalidInputException("line", "unreadable line: " + e.getMessage());
    }
    String kind =
        j.deviceKind() != null || context.kind() == null ? j.deviceKind() : label(context.kind());
    String operation = j.operation();
    if (operation == null) {
      Operation o = parts.operation() != null ? parts.operation() : context.operation();
      operation = o == null ? null : label(o);
    }
    NoteJson filled =
        new NoteJson(
            j.serial(),
            j.denomination(),
            j.currency(),
            j.edition(),
            j.device() != null ? j.device() : context.device(),
            kind,
            j.branch() != null
                ? j.branch()
                : parts.branch() != null ? parts.branch() : context.branch(),
            operation,
            j.time(),
            j.batch() != null ? j.batch() : parts.batch(),
            j.verdict(),
            j.errorCodes(),
            j.source() != null ? j.source() : source,
            j.record() != null ? j.record() : Long.valueOf(number),
            j.image());
    return filled.toNote("");
  }

  private static String label(Enum<?> e) {
    return e.name().toLowerCase(Locale.ROOT);
  }
}
