package org.casebook.trails;

import java.io.BufferedInputStream;
import java.io.BufferedWriter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.hbase.client.Connection;
import org.casebook.core.InvalidInputException;
import org.casebook.core.cli.Progress;

/**
 * Behaviour trails (seeds 000 and 004): ingest of behaviour logs, the users × days × behaviours
 * trail query, user-history queries on the tall and wide designs, and the seed-000 task (users
 * who did all four behaviours in a date range). Thread-safe.
 */
public final class TrailsService {
  /** Which history tables an ingest also writes. */
  public enum History { NONE, TALL, WIDE, BOTH }

  /**
   * @param rejectsFile where rejected lines go (line number, reason, the line)
   * @param threads parser/writer threads
   */
  public record IngestOptions(Path rejectsFile, History history, int threads) {
    public IngestOptions {
      Objects.requireNonNull(rejectsFile, "rejectsFile is null");
      Objects.requireNonNull(history, "history is null");
      InvalidInputException.check(threads >= 1 && threads <= 64, "threads", "threads must be 1..64");
    }
  }

  /** A user's trail in time order. */
  public record Trail(String uid, List<Event> events) {
    public Trail {
      events = List.copyOf(events);
    }

    public Set<Behaviour> behaviours() {
      Set<Behaviour> s = EnumSet.noneOf(Behaviour.class);
      events.forEach(e -> s.add(e.type()));
      return s;
    }
  }

  private static final int CHUNK_LINES = 2000;
  private static final int MAX_LINE_BYTES = 1 << 20;
  private final TrailsStore store;
  /** Per-user scans of a multi-user query run side by side on the shared connection. */
  private static final ExecutorService SCANS = Executors.newFixedThreadPool(8, r -> {
    Thread t = new Thread(r, "trails-scan");
    t.setDaemon(true);
    return t;
  });

  public TrailsService(Connection connection) {
    this(connection, TrailsSchema.DEFAULT_NAMESPACE);
  }

  public TrailsService(Connection connection, String namespace) {
    this.store = new TrailsStore(Objects.requireNonNull(connection, "connection is null"), TrailsSchema.in(namespace));
  }

  public static List<org.casebook.core.schema.TableSpec> schemas(String namespace) {
    return TrailsSchema.in(namespace).tables();
  }

  /**
   * Cleans and stores a log file. Bad lines (malformed JSON, bad UTF-8, missing or mistyped
   * fields, lines over 1 MiB) are counted and written to the rejects file; they never stop the
   * run. Column ids come from the records, so ingesting a file again writes the same cells.
   */
  public IngestReport ingest(Path input, IngestOptions options, Progress progress) {
    long t0 = System.nanoTime();
    AtomicLong accepted = new AtomicLong();
    AtomicLong cells = new AtomicLong();
    ConcurrentLinkedQueue<String[]> rejects = new ConcurrentLinkedQueue<>();
    Map<String, AtomicLong> reasons = new ConcurrentHashMap<>();
    ExecutorService pool = Executors.newFixedThreadPool(options.threads(), r -> {
      Thread t = new Thread(r, "trails-ingest");
      t.setDaemon(true);
      return t;
    });
    Semaphore inFlight = new Semaphore(options.threads() * 2);
    List<Future<?>> futures = new ArrayList<>();
    long lineNo = 0;
    boolean tall = options.history() == History.TALL || options.history() == History.BOTH;
    boolean wide = options.history() == History.WIDE || options.history() == History.BOTH;
    try (TrailsStore.Writers writers = store.writers(tall, wide);
         InputStream in = new BufferedInputStream(Files.newInputStream(input), 1 << 16)) {
      List<byte[]> chunk = new ArrayList<>(CHUNK_LINES);
      long chunkStart = 1;
      byte[] line;
      while ((line = readLine(in)) != null) {
        lineNo++;
        chunk.add(line);
        if (chunk.size() == CHUNK_LINES) {
          futures.add(submit(pool, inFlight, writers, chunk, chunkStart, accepted, cells, rejects, reasons, progress));
          chunk = new ArrayList<>(CHUNK_LINES);
          chunkStart = lineNo + 1;
          pruneDone(futures);
        }
      }
      if (!chunk.isEmpty()) {
        futures.add(submit(pool, inFlight, writers, chunk, chunkStart, accepted, cells, rejects, reasons, progress));
      }
      for (Future<?> f : futures) {
        f.get();
      }
    } catch (IOException e) {
      throw new UncheckedIOException("ingest of " + input + " failed: " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new UncheckedIOException(new java.io.InterruptedIOException("ingest interrupted"));
    } catch (java.util.concurrent.ExecutionException e) {
      if (e.getCause() instanceof UncheckedIOException u) {
        throw u;
      }
      throw new IllegalStateException("ingest worker failed", e.getCause());
    } finally {
      pool.shutdownNow();
    }
    writeRejects(options.rejectsFile(), rejects);
    Map<String, Long> reasonCounts = new TreeMap<>();
    reasons.forEach((k, v) -> reasonCounts.put(k, v.get()));
    return new IngestReport(input, lineNo, accepted.get(), rejects.size(), cells.get(), (System.nanoTime() - t0) / 1e9,
        options.rejectsFile(), reasonCounts);
  }

  private static void pruneDone(List<Future<?>> futures) throws InterruptedException,
      java.util.concurrent.ExecutionException {
    while (!futures.isEmpty() && futures.get(0).isDone()) {
      futures.remove(0).get();
    }
  }

  private Future<?> submit(ExecutorService pool, Semaphore inFlight, TrailsStore.Writers writers, List<byte[]> lines,
                           long firstLine, AtomicLong accepted, AtomicLong cells, ConcurrentLinkedQueue<String[]> rejects,
                           Map<String, AtomicLong> reasons, Progress progress) throws InterruptedException {
    inFlight.acquire();
    return pool.submit(() -> {
      try {
        long n = firstLine;
        for (byte[] raw : lines) {
          long lineNo = n++;
          String reason;
          String category;
          String text = null;
          if (raw.length > MAX_LINE_BYTES) {
            category = "line too long";
            reason = "line longer than " + MAX_LINE_BYTES + " bytes";
          } else {
            try {
              text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                  .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(raw)).toString();
              LogParser.Parsed parsed = LogParser.parse(text);
              if (parsed.event().isPresent()) {
                cells.addAndGet(writers.write(parsed.event().get()));
                accepted.incrementAndGet();
                progress.advance(raw.length + 1);
                continue;
              }
              category = parsed.category();
              reason = parsed.reason();
            } catch (CharacterCodingException e) {
              category = "invalid UTF-8";
              reason = "invalid UTF-8";
            }
          }
          String shown = text != null ? text : new String(raw, 0, Math.min(raw.length, 2000), StandardCharsets.UTF_8);
          rejects.add(new String[] {Long.toString(lineNo), reason, shown});
          reasons.computeIfAbsent(category, k -> new AtomicLong()).incrementAndGet();
          progress.advance(raw.length + 1);
        }
      } catch (IOException e) {
        throw new UncheckedIOException("write failed: " + e.getMessage(), e);
      } finally {
        inFlight.release();
      }
      return null;
    });
  }

  /** One line without its terminator ({@code \n}, optional {@code \r}), or null at the end. */
  private static byte[] readLine(InputStream in) throws IOException {
    ByteArrayOutputStream buf = new ByteArrayOutputStream(256);
    int b;
    boolean any = false;
    while ((b = in.read()) != -1) {
      any = true;
      if (b == '\n') {
        break;
      }
      if (buf.size() <= MAX_LINE_BYTES) {
        buf.write(b);
      }
    }
    if (!any) {
      return null;
    }
    byte[] line = buf.toByteArray();
    if (line.length > 0 && line[line.length - 1] == '\r') {
      line = java.util.Arrays.copyOf(line, line.length - 1);
    }
    return line;
  }

  private static void writeRejects(Path file, ConcurrentLinkedQueue<String[]> rejects) {
    List<String[]> sorted = new ArrayList<>(rejects);
    sorted.sort(Comparator.comparingLong(r -> Long.parseLong(r[0])));
    try {
      if (file.getParent() != null) {
        Files.createDirectories(file.getParent());
      }
      try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
        w.write("# line\treason\tline as read\n");
        for (String[] r : sorted) {
          w.write(r[0] + "\t" + r[1].replace('\t', ' ').replace('\n', ' ') + "\t"
              + r[2].replace('\t', ' ').replace('\n', ' ').replace('\r', ' ') + "\n");
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("could not write rejects to " + file + ": " + e.getMessage(), e);
    }
  }

  /**
   * How a trail query reads HBase. GETS is seed 000's plan: enumerate every (user, day,
   * behaviour) row and fetch them in batched Gets, only the requested fields' columns. SCAN reads
   * each user's contiguous day range with one bounded Scan. AUTO scans when every behaviour is
   * wanted (nothing to skip) and uses Gets otherwise.
   */
  public enum Plan { AUTO, GETS, SCAN }

  /** Trails of every user in the query, each in time order (users without events included, empty). */
  public Map<String, Trail> trails(TrailQuery q) {
    return trails(q, Long.MIN_VALUE, Long.MAX_VALUE, Plan.AUTO);
  }

  public Map<String, Trail> trails(TrailQuery q, Plan plan) {
    return trails(q, Long.MIN_VALUE, Long.MAX_VALUE, plan);
  }

  /** As {@link #trails(TrailQuery)}, keeping only events with {@code fromTs <= ts < toTs}. */
  public Map<String, Trail> trails(TrailQuery q, long fromTs, long toTs, Plan plan) {
    int first = TrailsKeys.epochDay(q.from());
    int last = TrailsKeys.epochDay(q.to());
    boolean scan = plan == Plan.SCAN || (plan == Plan.AUTO && q.types().size() == Behaviour.values().length);
    List<Event> found = new ArrayList<>();
    if (scan && q.users().size() == 1) {
      found.addAll(store.eventsByScan(q.users().get(0), first, last, q.types(), q.fields()));
    } else if (scan) {
      List<Future<List<Event>>> parts = new ArrayList<>(q.users().size());
      for (String uid : q.users()) {
        parts.add(SCANS.submit(() -> store.eventsByScan(uid, first, last, q.types(), q.fields())));
      }
      for (Future<List<Event>> part : parts) {
        try {
          found.addAll(part.get());
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new UncheckedIOException(new java.io.InterruptedIOException("query interrupted"));
        } catch (java.util.concurrent.ExecutionException e) {
          if (e.getCause() instanceof RuntimeException re) {
            throw re;
          }
          throw new IllegalStateException(e.getCause());
        }
      }
    } else {
      List<TrailsStore.EventGet> gets = new ArrayList<>();
      for (String uid : q.users()) {
        for (int day = first; day <= last; day++) {
          for (Behaviour b : q.types()) {
            gets.add(new TrailsStore.EventGet(uid, day, b, fieldsFor(b, q.fields())));
          }
        }
      }
      found = store.events(gets);
    }
    Map<String, List<Event>> byUser = new LinkedHashMap<>();
    q.users().forEach(u -> byUser.put(u, new ArrayList<>()));
    for (Event e : found) {
      if (e.ts() >= fromTs && e.ts() < toTs) {
        byUser.get(e.uid()).add(e);
      }
    }
    Map<String, Trail> out = new LinkedHashMap<>();
    byUser.forEach((u, events) -> {
      events.sort(Comparator.comparingLong(Event::ts).thenComparing(e -> e.type().id()));
      out.put(u, new Trail(u, events));
    });
    return out;
  }

  /**
   * Requested fields of this behaviour; if none of the requested fields is one of its, its first
   * field, so that its events are still listed (with only that field).
   */
  static List<String> fieldsFor(Behaviour b, Set<String> requested) {
    if (requested.isEmpty()) {
      return List.of();
    }
    List<String> mine = new ArrayList<>();
    for (Behaviour.Field f : b.fields()) {
      if (requested.contains(f.name())) {
        mine.add(f.name());
      }
    }
    return mine.isEmpty() ? List.of(b.fields().get(0).name()) : mine;
  }

  /** Account × behaviour × time range (seed 004 §4.1). */
  public List<Event> range(String uid, Behaviour type, long fromTs, long toTs) {
    InvalidInputException.check(toTs > fromTs, "to", "'to' must be after 'from'");
    LocalDate from = TrailsKeys.date(TrailsKeys.epochDay(fromTs));
    LocalDate to = TrailsKeys.date(TrailsKeys.epochDay(toTs - 1));
    return trails(new TrailQuery(List.of(uid), from, to, Set.of(type), Set.of()), fromTs, toTs, Plan.AUTO).get(uid).events();
  }

  /** The seed-000 task: users who did all four behaviours in the range, with their trails. */
  public Map<String, Trail> active(List<String> users, LocalDate from, LocalDate to) {
    Map<String, Trail> out = new LinkedHashMap<>();
    for (int i = 0; i < users.size(); i += 500) {
      List<String> chunk = users.subList(i, Math.min(users.size(), i + 500));
      trails(new TrailQuery(chunk, from, to, Set.of(), Set.of())).forEach((u, t) -> {
        if (t.behaviours().size() == Behaviour.values().length) {
          out.put(u, t);
        }
      });
    }
    return out;
  }

  /**
   * The seed-000 task as a MapReduce job ({@link ActiveUsersJob}): the LocalJobRunner when
   * {@code conf} names no cluster framework, YARN when it does. {@code workDir} holds the user
   * list and the job output (it must be on the job's file system).
   */
  public Map<String, Trail> activeMapReduce(List<String> users, LocalDate from, LocalDate to,
                                            org.apache.hadoop.conf.Configuration conf, Path workDir) {
    new TrailQuery(users, from, to, Set.of(), Set.of());
    org.apache.hadoop.conf.Configuration jobConf = new org.apache.hadoop.conf.Configuration(conf);
    if (jobConf.get("mapreduce.framework.name") == null) {
      jobConf.set("mapreduce.framework.name", "local");
    }
    try {
      Files.createDirectories(workDir);
      Path usersFile = workDir.resolve("users.txt");
      Files.write(usersFile, users, StandardCharsets.UTF_8);
      Path output = workDir.resolve("output");
      org.casebook.core.LocalFiles.deleteRecursively(output);
      ActiveUsersJob.Outcome outcome = ActiveUsersJob.run(jobConf, new org.apache.hadoop.fs.Path(usersFile.toUri()), from,
          to, new org.apache.hadoop.fs.Path(output.toUri()), store.schema().events().getNamespaceAsString());
      if (!outcome.succeeded()) {
        throw new IllegalStateException("MapReduce job failed; see the job log");
      }
      Map<String, Trail> out = new TreeMap<>();
      try (java.util.stream.Stream<Path> parts = Files.list(output)) {
        for (Path part : (Iterable<Path>) parts.filter(p -> p.getFileName().toString().startsWith("part-")).sorted()::iterator) {
          for (String line : Files.readAllLines(part, StandardCharsets.UTF_8)) {
            int tab = line.indexOf('\t');
            String uid = line.substring(0, tab);
            out.put(uid, new Trail(uid, parseEvents(uid, line.substring(tab + 1))));
          }
        }
      }
      return out;
    } catch (IOException e) {
      throw new UncheckedIOException("MapReduce run failed: " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new UncheckedIOException(new java.io.InterruptedIOException("MapReduce run interrupted"));
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException("MapReduce run failed: " + e.getMessage(), e);
    }
  }

  private static List<Event> parseEvents(String uid, String json) throws IOException {
    List<Event> events = new ArrayList<>();
    for (com.fasterxml.jackson.databind.JsonNode n : new com.fasterxml.jackson.databind.ObjectMapper().readTree(json)) {
      LogParser.Parsed p = LogParser.parse(n.toString());
      events.add(p.event().orElseThrow(() -> new IOException("job wrote an unreadable event for " + uid + ": " + p.reason())));
    }
    return events;
  }


  public List<Event> latest(String uid, int n, HistoryLayout layout) {
    checkUid(uid);
    InvalidInputException.check(n >= 1 && n <= 10_000, "n", "n must be 1..10000");
    return store.latest(uid, n, layout);
  }

  public List<Event> at(String uid, long ts, HistoryLayout layout) {
    checkUid(uid);
    return store.at(uid, ts, layout);
  }

  public List<Event> all(String uid, int limit, HistoryLayout layout) {
    checkUid(uid);
    InvalidInputException.check(limit >= 1 && limit <= 1_000_000, "limit", "limit must be 1..1000000");
    return store.all(uid, limit, layout);
  }

  private static void checkUid(String uid) {
    String problem = uid == null ? "is missing" : LogParser.textProblem(uid, LogParser.MAX_UID_CHARS);
    InvalidInputException.check(problem == null, "uid", "uid " + problem);
  }
}
