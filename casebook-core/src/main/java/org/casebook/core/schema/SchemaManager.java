package org.casebook.core.schema;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import org.apache.hadoop.hbase.NamespaceDescriptor;
import org.apache.hadoop.hbase.NamespaceExistException;
import org.apache.hadoop.hbase.TableExistsException;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.io.compress.Compression;
import org.apache.hadoop.hbase.util.CompressionTest;
import org.casebook.core.ConflictException;
import org.casebook.core.StorageException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes the cluster match the declared schemas: creates what is missing, leaves what matches, and
 * refuses (with every difference listed) when an existing table has another shape.
 */
public final class SchemaManager {
  private static final Logger LOG = LoggerFactory.getLogger(SchemaManager.class);
  private static final Map<Compression.Algorithm, Boolean> CODEC_AVAILABLE =
      new ConcurrentHashMap<>();

  /** What {@link #ensure} did to one table. */
  public enum Outcome {
    CREATED,
    UNCHANGED,
    /**
     * A family a newer version declares was added (and maybe a family retuned, as for {@link
     * #RETUNED}); nothing else changed.
     */
    FAMILIES_ADDED,
    /**
     * A family's compression, bloom filter, data block encoding, in-memory compaction or time to
     * live was changed in place to the declared one; nothing else changed. A shorter time to live
     * hides older cells at once (a major compaction removes them). The others touch no stored cell:
     * the first three shape the files written from now on (flushes and compactions), in-memory
     * compaction only the memstore. Files already written keep theirs, and both kinds are read,
     * until a major compaction rewrites them ({@link #majorCompact}).
     */
    RETUNED
  }

  /**
   * What an existing table lacks: families to add, families to retune, and one line per change
   * saying what it changes.
   */
  record Changes(
      List<FamilySpec> missing,
      List<ColumnFamilyDescriptor> retuned,
      List<String> notes,
      boolean rewrites) {
    boolean none() {
      return missing.isEmpty() && retuned.isEmpty();
    }
  }

  /**
   * The result for one table; {@code changes}: one line per change made (empty when none), {@code
   * rewrites}: whether stored files keep an older compression, encoding or bloom filter until a
   * major compaction.
   */
  public record Result(
      TableSpec spec, Outcome outcome, int regions, List<String> changes, boolean rewrites) {
    public Result {
      changes = List.copyOf(changes);
    }

    Result(TableSpec spec, Outcome outcome, int regions) {
      this(spec, outcome, regions, List.of(), false);
    }
  }

  /**
   * A deployment's replacements for declared codecs, {@code FROM:TO[,FROM:TO…]} (e.g. {@code
   * ZSTD:SNAPPY}), for a cluster whose region servers lack a codec a system declares. Read from the
   * HBase configuration ({@code --hbase casebook.compression.substitute=ZSTD:SNAPPY}).
   */
  public static final String SUBSTITUTE_KEY = "casebook.compression.substitute";

  private final Connection connection;
  private final Map<Compression.Algorithm, Compression.Algorithm> substitutes;

  public SchemaManager(Connection connection) {
    this.connection = Objects.requireNonNull(connection, "connection is null");
    this.substitutes = substitutes(connection.getConfiguration());
  }

  /** The codec substitutions {@code conf} asks for ({@link #SUBSTITUTE_KEY}). */
  static Map<Compression.Algorithm, Compression.Algorithm> substitutes(
      org.apache.hadoop.conf.Configuration conf) {
    String text = conf.getTrimmed(SUBSTITUTE_KEY, "");
    Map<Compression.Algorithm, Compression.Algorithm> out =
        new java.util.EnumMap<>(Compression.Algorithm.class);
    if (text.isEmpty()) {
      return out;
    }
    for (String pair : text.split(",")) {
      String[] parts = pair.trim().split(":");
      org.casebook.core.InvalidInputException.check(
          parts.length == 2,
          SUBSTITUTE_KEY,
          SUBSTITUTE_KEY + " takes FROM:TO pairs separated by commas, e.g. ZSTD:SNAPPY: " + text);
      out.put(codec(parts[0], text), codec(parts[1], text));
    }
    return out;
  }

  private static Compression.Algorithm codec(String name, String text) {
    try {
      return Compression.Algorithm.valueOf(name.trim().toUpperCase(java.util.Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new org.casebook.core.InvalidInputException(
          SUBSTITUTE_KEY,
          "unknown codec '"
              + name.trim()
              + "' in "
              + SUBSTITUTE_KEY
              + "="
              + text
              + "; known: "
              + java.util.Arrays.toString(Compression.Algorithm.values()));
    }
  }

  /**
   * The compression {@code family} gets on tables created with {@code conf}: its declared codec, or
   * the deployment's substitute for it, or NONE where this process lacks the codec (logged).
   */
  public static Compression.Algorithm compressionOn(
      FamilySpec family, org.apache.hadoop.conf.Configuration conf) {
    return codecOf(family, substitutes(conf));
  }

  /** As {@link #compressionOn}, with this manager's substitutions (read once). */
  public Compression.Algorithm compressionOf(FamilySpec family) {
    return codecOf(family, substitutes);
  }

  private static Compression.Algorithm codecOf(
      FamilySpec family, Map<Compression.Algorithm, Compression.Algorithm> substitutes) {
    return effectiveCompression(
        substitutes.getOrDefault(family.compression(), family.compression()));
  }

  /**
   * Ensures every spec. Existing tables are checked first, so a conflict leaves the cluster as it
   * was. Missing tables are then created concurrently: the master runs the procedures side by side,
   * and a one-at-a-time wait costs a start-up about 1 s per table (measured: five 3-region tables
   * in 0.7 s together against 3.5 s in turn). Every creation is waited for, also when one fails;
   * the first failure is then thrown.
   */
  public List<Result> ensureAll(List<TableSpec> specs) {
    for (TableSpec spec : specs) {
      verifyIfExists(spec);
    }
    try (Admin admin = connection.getAdmin()) {
      for (String namespace : specs.stream().map(TableSpec::namespace).distinct().toList()) {
        ensureNamespace(admin, namespace);
      }
      Map<TableSpec, Future<Void>> creating = new LinkedHashMap<>();
      for (TableSpec spec : specs) {
        if (!admin.tableExists(spec.name())) {
          try {
            creating.put(spec, createAsync(admin, spec));
          } catch (TableExistsException raced) {
            creating.put(spec, java.util.concurrent.CompletableFuture.failedFuture(raced));
          }
        }
      }
      Map<TableSpec, Boolean> created = new LinkedHashMap<>();
      IOException failure = null;
      for (Map.Entry<TableSpec, Future<Void>> e : creating.entrySet()) {
        try {
          created.put(e.getKey(), await(e.getValue(), "create table " + e.getKey().name()));
        } catch (IOException ex) {
          if (failure == null) {
            failure = ex;
          } else {
            failure.addSuppressed(ex);
          }
        }
      }
      if (failure != null) {
        throw failure;
      }
      List<Result> results = new ArrayList<>();
      for (TableSpec spec : specs) {
        Boolean mine = created.get(spec);
        if (Boolean.TRUE.equals(mine)) {
          LOG.info("created table {} with {} region(s)", spec.name(), spec.splits().regionCount());
          results.add(new Result(spec, Outcome.CREATED, spec.splits().regionCount()));
        } else {
          // Existed, or another process created it between our check and create: verify it.
          results.add(checkAndExtend(admin, spec));
        }
      }
      return results;
    } catch (IOException e) {
      throw StorageException.of("ensure tables", e);
    }
  }

  private Future<Void> createAsync(Admin admin, TableSpec spec) throws IOException {
    TableDescriptor descriptor = toDescriptor(spec, this::compressionOf);
    return spec.splits().regionCount() > 1
        ? admin.createTableAsync(descriptor, spec.splits().toArray())
        : admin.createTableAsync(descriptor);
  }

  /**
   * Waits for a table procedure, at most as long as the synchronous Admin calls do ({@code
   * hbase.client.sync.wait.timeout.msec}); false when it failed because the table already exists (a
   * concurrent creator won), an exception for any other failure or the timeout.
   */
  private boolean await(Future<Void> procedure, String what) throws IOException {
    long timeoutMillis =
        connection.getConfiguration().getLong("hbase.client.sync.wait.timeout.msec", 10 * 60_000);
    try {
      procedure.get(timeoutMillis, java.util.concurrent.TimeUnit.MILLISECONDS);
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted: " + what);
    } catch (java.util.concurrent.TimeoutException e) {
      throw new org.apache.hadoop.hbase.exceptions.TimeoutIOException(
          what + " did not finish within " + timeoutMillis + " ms", e);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof TableExistsException) {
        return false;
      }
      throw cause instanceof IOException io ? io : new IOException(what, cause);
    }
  }

  public Result ensure(TableSpec spec) {
    try (Admin admin = connection.getAdmin()) {
      ensureNamespace(admin, spec.namespace());
      if (admin.tableExists(spec.name())) {
        return checkAndExtend(admin, spec);
      }
      TableDescriptor descriptor = toDescriptor(spec, this::compressionOf);
      try {
        if (spec.splits().regionCount() > 1) {
          admin.createTable(descriptor, spec.splits().toArray());
        } else {
          admin.createTable(descriptor);
        }
        LOG.info("created table {} with {} region(s)", spec.name(), spec.splits().regionCount());
        return new Result(spec, Outcome.CREATED, spec.splits().regionCount());
      } catch (TableExistsException raced) {
        // Another process created it between our check and create: verify theirs instead.
        return checkAndExtend(admin, spec);
      }
    } catch (IOException e) {
      throw StorageException.of("ensure table " + spec.name(), e);
    }
  }

  private Result checkAndExtend(Admin admin, TableSpec spec) throws IOException {
    TableDescriptor existing = admin.getDescriptor(spec.name());
    Changes changes = verify(existing, spec, this::compressionOf);
    if (!changes.none()) {
      // One table modification for every change: each reopens the table's regions.
      TableDescriptorBuilder b = TableDescriptorBuilder.newBuilder(existing);
      changes.missing().forEach(f -> b.setColumnFamily(toDescriptor(f, compressionOf(f))));
      changes.retuned().forEach(b::modifyColumnFamily);
      admin.modifyTable(b.build());
      changes.notes().forEach(n -> LOG.info("table {}: {}", spec.name(), n));
    }
    Outcome outcome =
        changes.none()
            ? Outcome.UNCHANGED
            : changes.missing().isEmpty() ? Outcome.RETUNED : Outcome.FAMILIES_ADDED;
    return new Result(
        spec, outcome, admin.getRegions(spec.name()).size(), changes.notes(), changes.rewrites());
  }

  /**
   * Asks for a major compaction of every region of {@code table}, which rewrites its files with the
   * family's current compression, encoding and bloom filter. It runs in the background on the
   * region servers and reads and writes the whole table once.
   */
  public void majorCompact(org.apache.hadoop.hbase.TableName table) {
    try (Admin admin = connection.getAdmin()) {
      admin.majorCompact(table);
    } catch (IOException e) {
      throw StorageException.of("major-compact " + table, e);
    }
  }

  /** Drops the table if it exists (used by benchmarks and experiments on their own tables). */
  public void drop(org.apache.hadoop.hbase.TableName name) {
    try (Admin admin = connection.getAdmin()) {
      if (admin.tableExists(name)) {
        if (admin.isTableEnabled(name)) {
          admin.disableTable(name);
        }
        admin.deleteTable(name);
      }
    } catch (IOException e) {
      throw StorageException.of("drop table " + name, e);
    }
  }

  /**
   * Drops every table of the namespace, then the namespace (benchmarks clean up with this). The
   * tables are disabled together, then deleted together.
   */
  public void dropNamespace(String namespace) {
    try (Admin admin = connection.getAdmin()) {
      boolean exists = false;
      for (NamespaceDescriptor d : admin.listNamespaceDescriptors()) {
        exists |= d.getName().equals(namespace);
      }
      if (!exists) {
        return;
      }
      List<org.apache.hadoop.hbase.TableName> tables =
          List.of(admin.listTableNamesByNamespace(namespace));
      List<Future<Void>> disabling = new ArrayList<>();
      for (org.apache.hadoop.hbase.TableName t : tables) {
        if (admin.isTableEnabled(t)) {
          disabling.add(admin.disableTableAsync(t));
        }
      }
      for (Future<Void> f : disabling) {
        await(f, "disable a table of " + namespace);
      }
      List<Future<Void>> deleting = new ArrayList<>();
      for (org.apache.hadoop.hbase.TableName t : tables) {
        deleting.add(admin.deleteTableAsync(t));
      }
      for (Future<Void> f : deleting) {
        await(f, "delete a table of " + namespace);
      }
      admin.deleteNamespace(namespace);
    } catch (IOException e) {
      throw StorageException.of("drop namespace " + namespace, e);
    }
  }

  private void verifyIfExists(TableSpec spec) {
    try (Admin admin = connection.getAdmin()) {
      if (admin.tableExists(spec.name())) {
        verify(admin.getDescriptor(spec.name()), spec, this::compressionOf);
      }
    } catch (IOException e) {
      throw StorageException.of("read table " + spec.name(), e);
    }
  }

  /** Creates {@code namespace} unless it exists (or another process creates it meanwhile). */
  public void ensureNamespace(String namespace) {
    try (Admin admin = connection.getAdmin()) {
      ensureNamespace(admin, namespace);
    } catch (IOException e) {
      throw StorageException.of("create namespace " + namespace, e);
    }
  }

  private static void ensureNamespace(Admin admin, String namespace) throws IOException {
    if (NamespaceDescriptor.DEFAULT_NAMESPACE_NAME_STR.equals(namespace)) {
      return;
    }
    for (NamespaceDescriptor d : admin.listNamespaceDescriptors()) {
      if (d.getName().equals(namespace)) {
        return;
      }
    }
    try {
      admin.createNamespace(NamespaceDescriptor.create(namespace).build());
    } catch (NamespaceExistException raced) {
      LOG.debug("namespace {} created concurrently", namespace);
    }
  }

  static TableDescriptor toDescriptor(TableSpec spec) {
    return toDescriptor(spec, f -> effectiveCompression(f.compression()));
  }

  static TableDescriptor toDescriptor(
      TableSpec spec, java.util.function.Function<FamilySpec, Compression.Algorithm> codecs) {
    TableDescriptorBuilder b = TableDescriptorBuilder.newBuilder(spec.name());
    for (FamilySpec f : spec.families()) {
      b.setColumnFamily(toDescriptor(f, codecs.apply(f)));
    }
    spec.settings().forEach(b::setValue);
    return b.build();
  }

  static ColumnFamilyDescriptor toDescriptor(FamilySpec f, Compression.Algorithm codec) {
    ColumnFamilyDescriptorBuilder b =
        ColumnFamilyDescriptorBuilder.newBuilder(
                org.apache.hadoop.hbase.util.Bytes.toBytes(f.name()))
            .setMaxVersions(f.maxVersions())
            .setTimeToLive(f.ttlSeconds())
            .setBloomFilterType(f.bloom())
            .setBlocksize(f.blockSize())
            .setCompressionType(codec)
            .setInMemory(f.inMemory());
    if (f.inMemoryCompaction() != null) {
      b.setInMemoryCompaction(f.inMemoryCompaction());
    }
    if (f.dataBlockEncoding() != null) {
      b.setDataBlockEncoding(f.dataBlockEncoding());
    }
    return b.build();
  }

  /** The codec if this runtime can use it, else NONE (logged once per codec). */
  static Compression.Algorithm effectiveCompression(Compression.Algorithm wanted) {
    if (wanted == Compression.Algorithm.NONE) {
      return wanted;
    }
    boolean ok =
        CODEC_AVAILABLE.computeIfAbsent(
            wanted,
            a -> {
              try {
                CompressionTest.testCompression(a);
                return true;
              } catch (IOException | RuntimeException | LinkageError e) {
                LOG.warn(
                    "compression {} is not available here ({}); using NONE", a, e.getMessage());
                return false;
              }
            });
    return ok ? wanted : Compression.Algorithm.NONE;
  }

  /**
   * Checks an existing table against its spec. Some changes are made in place, because none touches
   * stored data, so a newer version of a system can start on an older one's tables: adding a family
   * the spec declares and the table lacks, and giving a family the compression, bloom filter, data
   * block encoding and in-memory compaction the spec declares (its other settings kept; files
   * already written keep theirs until compacted, and both kinds are read), and the TTL its
   * retention setting declares (a decision the operator made in the settings). They are returned.
   * Any other difference (versions, block size, in-memory, table settings) is a conflict: each
   * changes what is kept or how it is cached, which an operator decides.
   */
  static Changes verify(TableDescriptor existing, TableSpec spec) {
    return verify(existing, spec, f -> effectiveCompression(f.compression()));
  }

  static Changes verify(
      TableDescriptor existing,
      TableSpec spec,
      java.util.function.Function<FamilySpec, Compression.Algorithm> codecs) {
    List<String> diffs = new ArrayList<>();
    List<FamilySpec> missing = new ArrayList<>();
    List<ColumnFamilyDescriptor> retuned = new ArrayList<>();
    List<String> notes = new ArrayList<>();
    boolean rewrites = false;
    Map<String, ColumnFamilyDescriptor> actual = new TreeMap<>();
    for (ColumnFamilyDescriptor cf : existing.getColumnFamilies()) {
      actual.put(cf.getNameAsString(), cf);
    }
    for (FamilySpec f : spec.families()) {
      ColumnFamilyDescriptor cf = actual.remove(f.name());
      if (cf == null) {
        missing.add(f);
        notes.add("added family " + f.name());
        continue;
      }
      compare(diffs, f.name(), "max versions", f.maxVersions(), cf.getMaxVersions());
      compare(diffs, f.name(), "block size", f.blockSize(), cf.getBlocksize());
      compare(diffs, f.name(), "in memory", f.inMemory(), cf.isInMemory());
      ColumnFamilyDescriptorBuilder b = ColumnFamilyDescriptorBuilder.newBuilder(cf);
      int before = notes.size();
      if (f.ttlSeconds() != cf.getTimeToLive()) {
        // A family's TTL is a retention setting the operator chose (the system's settings), so
        // it is applied, and what it does to stored cells is said.
        b.setTimeToLive(f.ttlSeconds());
        notes.add(FamilyChangeNotes.ttl(f.name(), cf.getTimeToLive(), f.ttlSeconds()));
      }
      Compression.Algorithm codec = codecs.apply(f);
      if (codec != cf.getCompressionType()) {
        b.setCompressionType(codec);
        rewrites = true;
        notes.add(
            FamilyChangeNotes.retune(
                f.name(), "compresses the files it writes", cf.getCompressionType(), codec));
      }
      if (f.bloom() != cf.getBloomFilterType()) {
        b.setBloomFilterType(f.bloom());
        rewrites = true;
        notes.add(
            FamilyChangeNotes.retune(
                f.name(), "writes bloom filters", cf.getBloomFilterType(), f.bloom()));
      }
      if (f.dataBlockEncoding() != null && f.dataBlockEncoding() != cf.getDataBlockEncoding()) {
        b.setDataBlockEncoding(f.dataBlockEncoding());
        rewrites = true;
        notes.add(
            FamilyChangeNotes.retune(
                f.name(),
                "encodes the blocks it writes",
                cf.getDataBlockEncoding(),
                f.dataBlockEncoding()));
      }
      if (f.inMemoryCompaction() != null && f.inMemoryCompaction() != cf.getInMemoryCompaction()) {
        b.setInMemoryCompaction(f.inMemoryCompaction());
        notes.add(
            "family "
                + f.name()
                + " now compacts its memstore "
                + f.inMemoryCompaction()
                + " (was "
                + cf.getInMemoryCompaction()
                + ")");
      }
      if (notes.size() > before) {
        retuned.add(b.build());
      }
    }
    for (String extra : actual.keySet()) {
      diffs.add("family '" + extra + "' exists but is not declared");
    }
    for (Map.Entry<String, String> setting : spec.settings().entrySet()) {
      compare(
          diffs,
          "table",
          setting.getKey(),
          setting.getValue(),
          existing.getValue(setting.getKey()));
    }
    if (!diffs.isEmpty()) {
      missing.forEach(f -> diffs.add("family '" + f.name() + "' is missing"));
      throw new ConflictException(
          "table "
              + spec.name()
              + " exists with another shape: "
              + String.join("; ", diffs)
              + ". Migrate or drop it deliberately; Casebook only adds missing families and sets"
              + " a family's compression, bloom filter, data block encoding, in-memory"
              + " compaction and time to live.");
    }
    return new Changes(missing, retuned, notes, rewrites);
  }

  private static void compare(
      List<String> diffs, String family, String what, Object wanted, Object actual) {
    if (!Objects.equals(wanted, actual)) {
      diffs.add(family + ": " + what + " is " + actual + ", declared " + wanted);
    }
  }
}
