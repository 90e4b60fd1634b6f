package org.casebook.docs.wire;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import org.casebook.core.InvalidInputException;
import org.casebook.core.Json;
import org.casebook.core.net.ByteLines;
import org.casebook.docs.BulkAction;
import org.casebook.docs.BulkDocument;
import org.casebook.docs.DocRef;

/**
 * A bulk request in Elasticsearch's {@code _bulk} shape — UTF-8 NDJSON, an action line ({@code
 * {"index"|"create"|"delete": {"_index": type, "_id": id, "parent": {"type", "id"}}}}) then, except
 * for delete, the document line — as the {@link BulkAction}s {@link
 * org.casebook.docs.DocsService#bulk} runs. Lines end with {@code \n} (a {@code \r} before it is
 * dropped); blank lines are skipped. Lines stay bytes until they are read: an action line here, a
 * document line by {@link DocumentJson} when the load asks for its fields (on a parser thread).
 */
public final class BulkNdjson {
  /**
   * A line of a bulk request (the CLI's files; an HTTP body has its own, smaller limit): room for a
   * document with several text fields of the largest size (64 Ki characters, up to 3 UTF-8 bytes
   * each for the BMP).
   */
  static final int MAX_LINE_BYTES = 16 << 20;

  /** An action line: exactly one of the three. */
  record ActionLine(BulkTarget index, BulkTarget create, BulkTarget delete) {}

  /** What an action acts on: {@code _index} is the type; {@code parent} for comments. */
  record BulkTarget(
      @JsonProperty("_index") String type, @JsonProperty("_id") String id, DocRef parent) {}

  /** An action line as read: the action, its target, or why it cannot run. */
  private record Head(
      String action, String type, String id, DocRef parent, InvalidInputException problem) {}

  private BulkNdjson() {}

  /**
   * The actions of {@code ndjson}, read as they are asked for (the caller closes the stream). A
   * failed read of the stream is an {@link UncheckedIOException}.
   */
  public static Iterator<BulkAction> actions(InputStream ndjson) {
    return new Actions(new ByteLines(ndjson, MAX_LINE_BYTES));
  }

  private static final class Actions implements Iterator<BulkAction> {
    private final ByteLines lines;
    private int lineNo;
    private BulkAction next;

    Actions(ByteLines lines) {
      this.lines = lines;
    }

    @Override
    public boolean hasNext() {
      if (next == null) {
        next = read();
      }
      return next != null;
    }

    @Override
    public BulkAction next() {
      if (!hasNext()) {
        throw new NoSuchElementException("no more bulk actions");
      }
      BulkAction a = next;
      next = null;
      return a;
    }

    /** The next action and its document line; null at the end. */
    private BulkAction read() {
      while (nextLine()) {
        lineNo++;
        if (!lines.tooLong() && lines.blank()) {
          continue;
        }
        int line = lineNo;
        Head h = head(lines);
        BulkDocument document = null;
        if (!h.action().equals("delete")) {
          document = nextLine() ? document(lines) : MISSING;
          lineNo++;
        }
        return new BulkAction(
            line, h.action(), h.type(), h.id(), h.parent(), document, h.problem());
      }
      return null;
    }

    private boolean nextLine() {
      try {
        return lines.next();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  private static Head head(ByteLines text) {
    ActionLine a;
    try {
      InvalidInputException.check(
          !text.tooLong(), "action", "an action line is longer than " + MAX_LINE_BYTES + " bytes");
      a = plainAction(text.array(), text.offset(), text.length());
      if (a == null) {
        a = Json.readBody(text.copy(), ActionLine.class);
      }
    } catch (InvalidInputException e) {
      return new Head("?", null, null, null, e);
    }
    int given =
        (a.index() == null ? 0 : 1) + (a.create() == null ? 0 : 1) + (a.delete() == null ? 0 : 1);
    String action = a.delete() != null ? "delete" : a.create() != null ? "create" : "index";
    BulkTarget t = a.delete() != null ? a.delete() : a.create() != null ? a.create() : a.index();
    InvalidInputException problem =
        given == 1
            ? null
            : new InvalidInputException(
                "action", "an action line has exactly one of index, create, delete");
    return t == null
        ? new Head(action, null, null, null, problem)
        : new Head(action, t.type(), t.id(), t.parent(), problem);
  }

  /**
   * An action line in its usual form — one action, string values, no other field — read with the
   * streaming parser; null for anything else (or anything wrong), which the strict record binding
   * then reads or rejects with its exact error. Half the parsing time of a line went to binding.
   */
  static ActionLine plainAction(byte[] text, int offset, int length) {
    try (JsonParser p = Json.mapper().createParser(text, offset, length)) {
      if (p.nextToken() != JsonToken.START_OBJECT || p.nextToken() != JsonToken.FIELD_NAME) {
        return null;
      }
      String action = p.currentName();
      if (!List.of("index", "create", "delete").contains(action)
          || p.nextToken() != JsonToken.START_OBJECT) {
        return null;
      }
      Map<String, String> values = new HashMap<>();
      DocRef parent = null;
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String name = p.currentName();
        if (name.equals("parent") && parent == null) {
          if (p.nextToken() != JsonToken.START_OBJECT) {
            return null;
          }
          Map<String, String> ref = new HashMap<>();
          while (p.nextToken() == JsonToken.FIELD_NAME) {
            String key = p.currentName();
            if (!(key.equals("type") || key.equals("id"))
                || p.nextToken() != JsonToken.VALUE_STRING) {
              return null;
            }
            ref.put(key, p.getText());
          }
          parent = new DocRef(ref.get("type"), ref.get("id"));
        } else if ((name.equals("_index") || name.equals("_id"))
            && !values.containsKey(name)
            && p.nextToken() == JsonToken.VALUE_STRING) {
          values.put(name, p.getText());
        } else {
          return null;
        }
      }
      if (p.currentToken() != JsonToken.END_OBJECT
          || p.nextToken() != JsonToken.END_OBJECT
          || p.nextToken() != null) {
        return null;
      }
      BulkTarget t = new BulkTarget(values.get("_index"), values.get("_id"), parent);
      return new ActionLine(
          action.equals("index") ? t : null,
          action.equals("create") ? t : null,
          action.equals("delete") ? t : null);
    } catch (IOException | RuntimeException e) {
      return null; // the strict binding reads it again and words the error
    }
  }

  /** The document line the reader is on, kept as bytes until a parser thread reads it. */
  private static BulkDocument document(ByteLines lines) {
    if (lines.tooLong()) {
      return TOO_LONG;
    }
    byte[] line = lines.copy();
    return new BulkDocument() {
      @Override
      public long bytes() {
        return line.length;
      }

      @Override
      public Map<String, Object> fields() {
        return DocumentJson.read(line);
      }
    };
  }

  /** The document of an action at the end of the request. */
  private static final BulkDocument MISSING = failing("the action has no document line");

  /** A document line longer than {@link #MAX_LINE_BYTES}, whose bytes were skipped. */
  private static final BulkDocument TOO_LONG =
      failing("the document line is longer than " + MAX_LINE_BYTES + " bytes");

  /** A document that cannot be read: {@code problem} is the action's 400, naming the document. */
  private static BulkDocument failing(String problem) {
    return new BulkDocument() {
      @Override
      public long bytes() {
        return 0;
      }

      @Override
      public Map<String, Object> fields() {
        throw new InvalidInputException("document", problem);
      }
    };
  }
}
