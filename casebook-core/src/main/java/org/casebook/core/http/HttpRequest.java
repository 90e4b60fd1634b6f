package org.casebook.core.http;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.casebook.core.InvalidInputException;
import org.casebook.core.Json;
import org.casebook.core.access.Action;
import org.casebook.core.access.Caller;
import org.casebook.core.page.PageRequest;

/** A parsed request: method, path parameters, query parameters and the raw body. */
public final class HttpRequest {
  private final String method;
  private final String path;
  private final Map<String, String> pathParams;
  private final Map<String, List<String>> query;
  private final Map<String, String> headers;
  private final byte[] body;
  private final Caller caller;
  private final String system;
  private volatile Action asked = Action.READ;

  /**
   * {@code headers} with lower-case names; {@code caller}: who sent it, as the access rule knows
   * them; {@code system}: whose route it is.
   */
  public HttpRequest(
      String method,
      String path,
      Map<String, String> pathParams,
      Map<String, List<String>> query,
      Map<String, String> headers,
      byte[] body,
      Caller caller,
      String system) {
    this.method = method;
    this.path = path;
    this.pathParams = Map.copyOf(pathParams);
    this.query = query;
    this.headers = Map.copyOf(headers);
    this.body = body;
    this.caller = caller;
    this.system = system;
  }

  /** Who sent this request. */
  public Caller caller() {
    return caller;
  }

  /**
   * Whether the caller may do {@code action} on this route's system. A route is checked for its
   * declared action before its handler runs; a route that does more on request (a query with {@code
   * delete=true}) asks here, answers {@link HttpResponse#refused} when not, and is audited at the
   * level it asked.
   */
  public boolean permits(Action action) {
    if (action.compareTo(asked) > 0) {
      asked = action;
    }
    return caller.may(system, action);
  }

  /** The system whose route this is ({@code platform} for the server's own). */
  public String system() {
    return system;
  }

  /** The highest action a handler asked {@link #permits} for. */
  Action asked() {
    return asked;
  }

  public String method() {
    return method;
  }

  public String path() {
    return path;
  }

  public String pathParam(String name) {
    String v = pathParams.get(name);
    if (v == null) {
      throw new IllegalStateException("route has no path parameter {" + name + "}");
    }
    return v;
  }

  public Optional<String> query(String name) {
    List<String> values = query.get(name);
    return values == null || values.isEmpty()
        ? Optional.empty()
        : Optional.of(values.get(values.size() - 1));
  }

  /** Every value of a repeated query parameter ({@code m=…&m=…}), in order; empty if absent. */
  public List<String> queryAll(String name) {
    List<String> values = query.get(name);
    return values == null ? List.of() : List.copyOf(values);
  }

  /** A request header by (case-insensitive) name. */
  public Optional<String> header(String name) {
    return Optional.ofNullable(headers.get(name.toLowerCase(java.util.Locale.ROOT)));
  }

  /** An integer query parameter in {@code [min, max]}, or the default when absent. */
  public int queryInt(String name, int defaultValue, int min, int max) {
    Optional<String> raw = query(name);
    if (raw.isEmpty()) {
      return defaultValue;
    }
    try {
      int v = Integer.parseInt(raw.get().trim());
      InvalidInputException.check(
          v >= min && v <= max, name, name + " must be between " + min + " and " + max);
      return v;
    } catch (NumberFormatException e) {
      throw new InvalidInputException(name, name + " must be an integer, got '" + raw.get() + "'");
    }
  }

  /**
   * {@code limit} (default {@code defaultLimit}, at most {@link PageRequest#MAX_LIMIT}) and {@code
   * cursor}.
   */
  public PageRequest page(int defaultLimit) {
    return PageRequest.of(
        PageRequest.parseLimit(query("limit").orElse(null), defaultLimit),
        query("cursor").orElse(null),
        defaultLimit);
  }

  public byte[] body() {
    return body.clone();
  }

  /**
   * The JSON body bound to {@code type} (a record, usually) by the shared strict mapper: unknown
   * fields, duplicate keys and trailing content are 400s naming the field (or {@code body}).
   */
  public <T> T body(Class<T> type) {
    return Json.readBody(body, type);
  }

  /**
   * Parses a raw query string; bad escapes or bytes that are not UTF-8 are a 400 naming {@code
   * query}.
   */
  public static Map<String, List<String>> parseQuery(String raw) {
    Map<String, List<String>> out = new HashMap<>();
    if (raw == null || raw.isEmpty()) {
      return out;
    }
    for (String pair : raw.split("&", -1)) {
      if (pair.isEmpty()) {
        continue;
      }
      int eq = pair.indexOf('=');
      String k = decode(eq < 0 ? pair : pair.substring(0, eq), true, "query");
      String v = eq < 0 ? "" : decode(pair.substring(eq + 1), true, k);
      out.computeIfAbsent(k, x -> new java.util.ArrayList<>()).add(v);
    }
    return out;
  }

  /**
   * A path segment ('+' is literal there, unlike in a query string); a bad one is a 400 naming
   * {@code field}.
   */
  public static String decodePath(String segment, String field) {
    return decode(segment, false, field);
  }

  /**
   * Percent-decodes strictly: every {@code %} needs two hex digits, and the bytes must be valid
   * UTF-8, so two different ids can never decode to the same text (no U+FFFD aliasing).
   */
  static String decode(String s, boolean plusIsSpace, String field) {
    if (s.indexOf('%') < 0 && (!plusIsSpace || s.indexOf('+') < 0)) {
      return strictUtf8(s.getBytes(StandardCharsets.ISO_8859_1), field);
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '%') {
        int hi = i + 2 < s.length() ? Character.digit(s.charAt(i + 1), 16) : -1;
        int lo = i + 2 < s.length() ? Character.digit(s.charAt(i + 2), 16) : -1;
        if (hi < 0 || lo < 0) {
          throw new InvalidInputException(field, "bad percent-encoding in '" + s + "'");
        }
        out.write(hi << 4 | lo);
        i += 2;
      } else if (c == '+' && plusIsSpace) {
        out.write(' ');
      } else if (c > 0xFF) {
        out.writeBytes(String.valueOf(c).getBytes(StandardCharsets.UTF_8));
      } else {
        out.write(c);
      }
    }
    return strictUtf8(out.toByteArray(), field);
  }

  private static String strictUtf8(byte[] bytes, String field) {
    try {
      return StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes))
          .toString();
    } catch (CharacterCodingException e) {
      throw new InvalidInputException(field, field + " is not valid UTF-8 once percent-decoded");
    }
  }
}
