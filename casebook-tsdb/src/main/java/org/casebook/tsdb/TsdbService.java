package org.casebook.tsdb;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.LongConsumer;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import java.util.zip.GZIPInputStream;
import org.casebook.core.InvalidInputException;
import org.casebook.core.LocalFileException;
import org.casebook.core.SystemContext;
import org.casebook.core.schema.TableSpec;

/**
 * The time-series store (seed 002, OpenTSDB case): points in, queries out, names and ids, on the
 * context's shared HBase connection and clock. Thread-safe.
 */
public final class TsdbService implements AutoCloseable {
  static final String VERSION = "2.4.1";
  private static final int IMPORT_BATCH = 5_000;
  private static final java.util.Set<String> POINT_FIELDS =
      java.util.Set.of("metric", "timestamp", "value", "tags");

  private final TsdbConfig config;
  private final Clock clock;
  private final ObjectMapper json;
  private final TsdbStore store;
  private final Uids uids;
  private final Compactor compactor;
  private final PointWriter writer;
  private final QueryRunner queries;

  /** The store in the {@code tsdb} namespace. */
  public TsdbService(SystemContext context, TsdbConfig config) {
    this(context, config, TsdbSchema.DEFAULT_NAMESPACE);
  }

  /** The store in another namespace (tests, benchmarks); {@link #schemas} lists its tables. */
  public TsdbService(SystemContext context, TsdbConfig config, String namespace) {
    Objects.requireNonNull(context, "context is null");
    this.config = Objects.requireNonNull(config, "config is null");
    this.clock = context.clock();
    this.json = context.json();
    TsdbSchema schema = TsdbSchema.in(namespace);
    // The salt is a property of the stored rows: the first run records it, later runs must agree.
    this.store = new TsdbStore(context.connection(), schema, config.saltBuckets());
    int recorded = store.recordedSaltBuckets(config.saltBuckets());
    if (recorded != config.saltBuckets()) {
      store.close();
      throw new InvalidInputException(
          "saltBuckets",
          "the tables in namespace "
              + namespace
              + " were created with "
              + recorded
              + " salt buckets, not "
              + config.saltBuckets()
              + " (CASEBOOK_TSDB_SALT_BUCKETS)");
    }
    this.uids = new Uids(store);
    this.compactor =
        new Compactor(store, clock, config.compactionDelaySeconds(), context.metrics());
    this.writer =
        new PointWriter(store, uids, compactor, context.background("tsdb-gather-" + namespace));
    this.queries =
        new QueryRunner(store, uids, compactor, clock, context.sideWork(), config.maxTags());
  }

  /** The tables of the store in {@code namespace}. */
  public static List<TableSpec> schemas(String namespace, int saltBuckets) {
    return TsdbSchema.in(namespace).tables(saltBuckets);
  }

  public TsdbConfig config() {
    return config;
  }

  /** The OpenTSDB version whose protocols this speaks. */
  public static String protocolVersion() {
    return VERSION;
  }

  static List<String> versionLines() {
    return List.of(
        "net.opentsdb.tools casebook-tsdb " + VERSION + " (OpenTSDB protocol)",
        "Built by casebook");
  }

  /** OpenTSDB's telnet-style protocol on this service, to serve with a line server. */
  public org.casebook.core.net.LineProtocol telnetProtocol(org.casebook.core.AccessRule access) {
    return new TelnetProtocol(this, access);
  }

  IncomingPoint.Limits limits() {
    return new IncomingPoint.Limits(
        config.maxTags(), clock.millis(), config.maxFutureSeconds() * 1000);
  }

  /** Writes checked points; with {@code sync}, returns once they are durable. */
  void write(List<IncomingPoint> points, boolean sync) {
    writer.write(points);
    if (sync) {
      writer.flush();
    }
  }

  /**
   * Writes the points of an {@code /api/put} body (one object or an array): every good point is
   * stored — durable when this returns with {@code sync}, else within the write buffer's flush
   * period (200 ms), as OpenTSDB's — and each bad one reported.
   */
  public PutResult put(JsonNode body, boolean sync) {
    List<JsonNode> items = new ArrayList<>();
    if (body.isArray()) {
      body.forEach(items::add);
    } else if (body.isObject()) {
      items.add(body);
    } else {
      throw new InvalidInputException("body", "a data point object or an array of them expected");
    }
    if (items.isEmpty()) {
      throw new InvalidInputException("body", "No datapoints found in content");
    }
    IncomingPoint.Limits limits = limits();
    List<IncomingPoint> good = new ArrayList<>(items.size());
    List<PutResult.PointError> errors = new ArrayList<>();
    for (JsonNode item : items) {
      try {
        good.add(parseJsonPoint(item, limits));
      } catch (InvalidInputException e) {
        errors.add(new PutResult.PointError(asMap(item), e.getMessage()));
      }
    }
    if (!good.isEmpty()) {
      write(good, sync);
    }
    return new PutResult(good.size(), errors.size(), errors);
  }

  /**
   * {@link #put(JsonNode, boolean)} for the common body — every point an object of string or number
   * {@code metric}, {@code timestamp}, {@code value} and string {@code tags}, all good — read in
   * one streaming pass without building a JSON tree; null for anything else, which {@link
   * #put(JsonNode, boolean)} then reads and reports point by point.
   */
  public PutResult putIfPlain(byte[] body, boolean sync) {
    List<IncomingPoint> points = plainPoints(body, limits());
    if (points == null) {
      return null;
    }
    write(points, sync);
    return new PutResult(points.size(), 0, List.of());
  }

  static List<IncomingPoint> plainPoints(byte[] body, IncomingPoint.Limits limits) {
    try (JsonParser p = org.casebook.core.Json.mapper().createParser(body)) {
      JsonToken root = p.nextToken();
      List<IncomingPoint> points = new ArrayList<>();
      if (root == JsonToken.START_OBJECT) {
        IncomingPoint one = plainPoint(p, limits);
        if (one == null) {
          return null;
        }
        points.add(one);
      } else if (root == JsonToken.START_ARRAY) {
        for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
          IncomingPoint next = t == JsonToken.START_OBJECT ? plainPoint(p, limits) : null;
          if (next == null) {
            return null;
          }
          points.add(next);
        }
      } else {
        return null;
      }
      return points.isEmpty() || p.nextToken() != null ? null : points;
    } catch (IOException | InvalidInputException e) {
      return null; // the tree reading words the error exactly
    }
  }

  /** One point object, the parser on its START_OBJECT; null if it is not plain. */
  private static IncomingPoint plainPoint(JsonParser p, IncomingPoint.Limits limits)
      throws IOException {
    String metric = null;
    String timestamp = null;
    String value = null;
    Map<String, String> tags = new LinkedHashMap<>();
    for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
      String field = p.currentName();
      JsonToken v = p.nextToken();
      switch (field) {
        case "metric" -> metric = plainScalar(p, v, false);
        case "timestamp" -> timestamp = plainScalar(p, v, true);
        case "value" -> value = plainScalar(p, v, false);
        case "tags" -> {
          if (v != JsonToken.START_OBJECT) {
            return null;
          }
          for (JsonToken k = p.nextToken(); k == JsonToken.FIELD_NAME; k = p.nextToken()) {
            String key = p.currentName();
            if (p.nextToken() != JsonToken.VALUE_STRING) {
              return null;
            }
            tags.put(key, p.getText());
          }
        }
        default -> {
          return null;
        }
      }
    }
    if (metric == null || timestamp == null || value == null) {
      return null;
    }
    return IncomingPoint.parse(metric, timestamp, value, tags, limits);
  }

  /** A scalar as the tree reading turns it into text ({@link #scalar}); null if not plain. */
  private static String plainScalar(JsonParser p, JsonToken v, boolean integerOnly)
      throws IOException {
    if (v == JsonToken.VALUE_STRING) {
      return p.getText();
    }
    if (v == JsonToken.VALUE_NUMBER_INT) {
      return p.getNumberValue().toString();
    }
    if (v == JsonToken.VALUE_NUMBER_FLOAT && !integerOnly) {
      return Double.toString(p.getDoubleValue());
    }
    return null;
  }

  private Map<String, Object> asMap(JsonNode item) {
    if (!item.isObject()) {
      return Map.of("value", item.toString());
    }
    @SuppressWarnings("unchecked") // an object node converts to a map of its fields
    Map<String, Object> m = json.convertValue(item, LinkedHashMap.class);
    return m;
  }

  static IncomingPoint parseJsonPoint(JsonNode item, IncomingPoint.Limits limits) {
    if (!item.isObject()) {
      throw new InvalidInputException("body", "a data point must be a JSON object");
    }
    for (Iterator<String> it = item.fieldNames(); it.hasNext(); ) {
      String f = it.next();
      if (!POINT_FIELDS.contains(f)) {
        throw new InvalidInputException(f, "Unrecognized field \"" + f + "\"");
      }
    }
    String metric = scalar(item, "metric");
    String timestamp = scalar(item, "timestamp");
    String value = scalar(item, "value");
    Map<String, String> tags = new LinkedHashMap<>();
    JsonNode t = item.get("tags");
    if (t != null && !t.isNull()) {
      if (!t.isObject()) {
        throw new InvalidInputException("tags", "tags must be an object of tag names to values");
      }
      for (Iterator<Map.Entry<String, JsonNode>> it = t.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        if (!e.getValue().isValueNode() || e.getValue().isNull()) {
          throw new InvalidInputException("tags", "tag " + e.getKey() + " must have a value");
        }
        tags.put(e.getKey(), e.getValue().asText());
      }
    }
    if (metric == null) {
      throw new InvalidInputException("metric", "Metric name was empty");
    }
    if (timestamp == null) {
      throw new InvalidInputException("timestamp", "Invalid timestamp");
    }
    if (value == null) {
      throw new InvalidInputException("value", "Empty value");
    }
    return IncomingPoint.parse(metric, timestamp, value, tags, limits);
  }

  private static String scalar(JsonNode item, String field) {
    JsonNode n = item.get(field);
    if (n == null || n.isNull()) {
      return null;
    }
    if (!n.isValueNode()) {
      throw new InvalidInputException(field, field + " must be a string or a number");
    }
    if (n.isFloatingPointNumber() && "timestamp".equals(field)) {
      throw new InvalidInputException(field, "Invalid timestamp: " + n.asText());
    }
    // Integral JSON numbers print without a fraction; others keep their decimal text.
    return n.isNumber() ? n.numberValue().toString() : n.asText();
  }

  /**
   * Imports a file in OpenTSDB's bulk import format (a {@code put} line without {@code put}: {@code
   * metric timestamp value tagk=tagv …}), gzip if the name ends in {@code .gz}. Bad lines are
   * counted and the first few reported; the good ones are durable when this returns.
   */
  public ImportReport importFile(Path file, LongConsumer bytesRead) {
    long started = System.nanoTime();
    long lines = 0;
    long points = 0;
    long refused = 0;
    List<String> firstErrors = new ArrayList<>();
    List<IncomingPoint> batch = new ArrayList<>(IMPORT_BATCH);
    try (CountingInputStream counted = new CountingInputStream(Files.newInputStream(file));
        InputStream in =
            file.getFileName().toString().endsWith(".gz")
                ? new GZIPInputStream(counted, 1 << 16)
                : counted;
        BufferedReader reader =
            new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8), 1 << 16)) {
      String line;
      long reported = 0;
      while ((line = reader.readLine()) != null) {
        lines++;
        String trimmed = line.strip();
        if (trimmed.isEmpty() || trimmed.startsWith("#")) {
          continue;
        }
        String[] words = TelnetProtocol.words("put " + trimmed);
        try {
          batch.add(TelnetProtocol.parsePut(words, limits()));
        } catch (InvalidInputException e) {
          refused++;
          if (firstErrors.size() < 10) {
            firstErrors.add("line " + lines + ": " + e.getMessage());
          }
        }
        if (batch.size() >= IMPORT_BATCH) {
          write(batch, false);
          points += batch.size();
          batch.clear();
          bytesRead.accept(counted.count() - reported);
          reported = counted.count();
        }
      }
      write(batch, true);
      points += batch.size();
      bytesRead.accept(counted.count() - reported);
    } catch (IOException e) {
      throw LocalFileException.of("read", file, e);
    }
    return new ImportReport(
        file.toString(), lines, points, refused, (System.nanoTime() - started) / 1e9, firstErrors);
  }

  /** Counts the compressed bytes read, for progress. */
  private static final class CountingInputStream extends FilterInputStream {
    private long count;

    CountingInputStream(InputStream in) {
      super(in);
    }

    long count() {
      return count;
    }

    @Override
    public int read() throws IOException {
      int b = super.read();
      if (b >= 0) {
        count++;
      }
      return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      int n = super.read(b, off, len);
      if (n > 0) {
        count += n;
      }
      return n;
    }
  }

  // ---- queries ----

  /** The series reader (tests, benchmarks in this package). */
  QueryRunner queries() {
    return queries;
  }

  /** Answers a JSON {@code /api/query} body, written as OpenTSDB writes its answer. */
  public byte[] query(JsonNode body) {
    OpenTsdbQuery q = OpenTsdbQuery.fromJson(body, clock.millis());
    return q.render(queries.run(q));
  }

  /** Answers a {@code GET /api/query} (its query-string parameters). */
  public byte[] query(Map<String, List<String>> params) {
    OpenTsdbQuery q = OpenTsdbQuery.fromParams(params, clock.millis());
    return q.render(queries.run(q));
  }

  /** OpenTSDB's {@code /api/search/lookup} answer. */
  public record LookupAnswer(
      String type,
      String metric,
      List<TagPair> tags,
      int limit,
      long time,
      List<LookupResult> results,
      int startIndex,
      int totalResults) {}

  /** A {@code key=value} pair of a lookup ({@code *} for any value). */
  public record TagPair(String key, String value) {}

  /** One series a lookup found. */
  public record LookupResult(String tsuid, String metric, Map<String, String> tags) {}

  /** Series of a metric whose tags include the given pairs. */
  public LookupAnswer lookup(String metric, List<TagPair> tags, int limit) {
    long started = System.nanoTime();
    Map<String, String> required = new LinkedHashMap<>();
    for (TagPair t : tags) {
      required.put(t.key(), t.value());
    }
    List<LookupResult> results = new ArrayList<>();
    for (QueryRunner.LookupSeries s : queries.lookup(metric, required, limit)) {
      results.add(new LookupResult(s.tsuid(), s.metric(), s.tags()));
    }
    return new LookupAnswer(
        "LOOKUP",
        metric,
        tags,
        limit,
        (System.nanoTime() - started) / 1_000_000,
        results,
        0,
        results.size());
  }

  /** Parses {@code metric{k=v,k2=*}} as {@code /api/search/lookup?m=} and last-point queries do. */
  public static Map.Entry<String, List<TagPair>> parseSeriesSpec(String spec, String field) {
    if (spec == null || spec.isEmpty()) {
      throw new InvalidInputException(field, "Missing the metric");
    }
    int brace = spec.indexOf('{');
    if (brace < 0) {
      return Map.entry(spec, List.of());
    }
    if (!spec.endsWith("}")) {
      throw new InvalidInputException(field, "Missing '}' at the end of: " + spec);
    }
    List<TagPair> pairs = new ArrayList<>();
    Map<String, String> seen = new LinkedHashMap<>();
    String inner = spec.substring(brace + 1, spec.length() - 1);
    if (!inner.isEmpty()) {
      for (String tag : inner.split(",", -1)) {
        TelnetProtocol.parseTag(seen, tag);
      }
    }
    seen.forEach((k, v) -> pairs.add(new TagPair(k, v)));
    return Map.entry(spec.substring(0, brace), pairs);
  }

  /** OpenTSDB's {@code /api/query/last} answer element (the value as a string, as OpenTSDB's). */
  public record LastAnswer(
      String metric, long timestamp, String value, Map<String, String> tags, String tsuid) {}

  /** The latest point of each series matching {@code metric{tags}} within {@code backScanHours}. */
  public List<LastAnswer> last(String metric, Map<String, String> tags, int backScanHours) {
    InvalidInputException.check(
        backScanHours >= 0 && backScanHours <= 24 * 366,
        "backScan",
        "backScan must be 0..8784 hours");
    List<LastAnswer> out = new ArrayList<>();
    for (QueryRunner.LastPoint p : queries.last(metric, tags, backScanHours)) {
      DataPoint d = p.point();
      String value = d.integer() ? Long.toString(d.longValue()) : Double.toString(d.doubleValue());
      out.add(new LastAnswer(p.metric(), d.timestampMs(), value, p.tags(), p.tsuid()));
    }
    return out;
  }

  /** The aggregator names, as {@code /api/aggregators} lists them. */
  public static List<String> aggregators() {
    return Aggregator.names();
  }

  /** The filter types with their descriptions and examples, as {@code /api/config/filters}. */
  public static Map<String, Map<String, String>> filterTypes() {
    return TagFilterType.configMap();
  }

  // ---- names ----

  /** Names of a kind ({@code metrics}, {@code tagk}, {@code tagv}) starting with {@code q}. */
  public List<String> suggest(String type, String q, int max) {
    UidKind kind = kind(type);
    List<String> out = new ArrayList<>();
    for (TsdbStore.UidName n : store.names(kind, q == null ? "" : q, max)) {
      out.add(n.name());
    }
    return out;
  }

  /** Assigns ids to new names; a name that has one is an error in the result, as OpenTSDB does. */
  public UidAssignment assign(String type, List<String> names) {
    UidKind kind = kind(type);
    Map<String, String> assigned = new LinkedHashMap<>();
    Map<String, String> errors = new LinkedHashMap<>();
    for (String name : names) {
      try {
        IncomingPoint.checkName(kind.singular() + " name", name, type);
        assigned.put(name, hex(uids.assign(kind, name, true)));
      } catch (InvalidInputException | org.casebook.core.ConflictException e) {
        errors.put(name, e.getMessage());
      }
    }
    return new UidAssignment(kind.apiName(), assigned, errors);
  }

  /** The result of an assignment: ids as hex by name, and names refused with why. */
  public record UidAssignment(
      String type, Map<String, String> assigned, Map<String, String> errors) {}

  /** Every name of a kind matching a regular expression, with its id in hex. */
  public Map<String, String> grep(String type, String regex, int max) {
    UidKind kind = kind(type);
    Pattern p;
    try {
      p = Pattern.compile(regex);
    } catch (PatternSyntaxException e) {
      throw new InvalidInputException("regex", "not a regular expression: " + e.getDescription());
    }
    Map<String, String> out = new LinkedHashMap<>();
    for (TsdbStore.UidName n : store.names(kind, "", Integer.MAX_VALUE)) {
      if (p.matcher(n.name()).find()) {
        out.put(n.name(), hex(n.id()));
        if (out.size() >= max) {
          break;
        }
      }
    }
    return out;
  }

  public void rename(String type, String oldName, String newName) {
    UidKind kind = kind(type);
    IncomingPoint.checkName(kind.singular() + " name", newName, "name");
    uids.rename(kind, oldName, newName);
  }

  static String hex(byte[] id) {
    StringBuilder sb = new StringBuilder();
    for (byte b : id) {
      sb.append(String.format(java.util.Locale.ROOT, "%02X", b & 0xFF));
    }
    return sb.toString();
  }

  private static UidKind kind(String type) {
    UidKind k = type == null ? null : UidKind.fromApiName(type);
    if (k == null) {
      throw new InvalidInputException(
          "type", "Invalid 'type' parameter: '" + type + "' (metrics, tagk or tagv)");
    }
    return k;
  }

  // ---- compaction ----

  /** Compacts the rows of finished hours written since start: rows rewritten. */
  public int compactDue() {
    return compactor.runDue();
  }

  /** Compacts every finished hour in the table: rows rewritten. */
  public int compactAll() {
    writer.flush();
    return compactor.runAll();
  }

  int compactionBacklog() {
    return compactor.pending();
  }

  long asyncWriteFailures() {
    return store.asyncFailures();
  }

  @Override
  public void close() {
    try {
      writer.close();
    } finally {
      store.close();
    }
  }
}
