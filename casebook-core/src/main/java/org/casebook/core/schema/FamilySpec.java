package org.casebook.core.schema;

import java.util.Objects;
import org.apache.hadoop.hbase.MemoryCompactionPolicy;
import org.apache.hadoop.hbase.io.compress.Compression;
import org.apache.hadoop.hbase.regionserver.BloomType;

/**
 * One column family, as code. Only the attributes Casebook cares about are compared when an
 * existing table is checked: max versions, TTL, bloom filter, block size, compression, in-memory,
 * in-memory compaction (the one difference changed in place rather than refused).
 *
 * @param ttlSeconds time to live, or {@link #FOREVER}
 * @param compression the codec wanted; if this runtime lacks it, NONE is used and logged
 * @param inMemoryCompaction how the memstore compacts itself before a flush; null: not declared (a
 *     new table gets the cluster's default, an existing table's family keeps its own). A family
 *     whose cells are rewritten over and over (counters, schedules) is cheaper to read with {@link
 *     MemoryCompactionPolicy#EAGER}, which keeps only the newest versions in memory.
 */
public record FamilySpec(
    String name,
    int maxVersions,
    int ttlSeconds,
    BloomType bloom,
    int blockSize,
    Compression.Algorithm compression,
    boolean inMemory,
    MemoryCompactionPolicy inMemoryCompaction) {
  public static final int FOREVER = Integer.MAX_VALUE;
  public static final int DEFAULT_BLOCK_SIZE = 64 * 1024;

  public FamilySpec {
    Objects.requireNonNull(name, "name is null");
    Objects.requireNonNull(bloom, "bloom is null");
    Objects.requireNonNull(compression, "compression is null");
    if (name.isEmpty() || name.contains(":")) {
      throw new IllegalArgumentException("bad family name: '" + name + "'");
    }
    if (maxVersions < 1) {
      throw new IllegalArgumentException("maxVersions must be >= 1");
    }
    if (ttlSeconds < 1) {
      throw new IllegalArgumentException("ttlSeconds must be >= 1");
    }
    if (blockSize < 1024) {
      throw new IllegalArgumentException("blockSize must be >= 1 KiB");
    }
  }

  /** One version, no TTL, row bloom filter, 64 KiB blocks, no compression. */
  public static FamilySpec of(String name) {
    return new FamilySpec(
        name,
        1,
        FOREVER,
        BloomType.ROW,
        DEFAULT_BLOCK_SIZE,
        Compression.Algorithm.NONE,
        false,
        null);
  }

  public FamilySpec withMaxVersions(int versions) {
    return new FamilySpec(
        name, versions, ttlSeconds, bloom, blockSize, compression, inMemory, inMemoryCompaction);
  }

  public FamilySpec withTtlSeconds(int ttl) {
    return new FamilySpec(
        name, maxVersions, ttl, bloom, blockSize, compression, inMemory, inMemoryCompaction);
  }

  public FamilySpec withBloom(BloomType type) {
    return new FamilySpec(
        name, maxVersions, ttlSeconds, type, blockSize, compression, inMemory, inMemoryCompaction);
  }

  public FamilySpec withBlockSize(int bytes) {
    return new FamilySpec(
        name, maxVersions, ttlSeconds, bloom, bytes, compression, inMemory, inMemoryCompaction);
  }

  public FamilySpec withCompression(Compression.Algorithm algorithm) {
    return new FamilySpec(
        name, maxVersions, ttlSeconds, bloom, blockSize, algorithm, inMemory, inMemoryCompaction);
  }

  public FamilySpec withInMemory(boolean value) {
    return new FamilySpec(
        name, maxVersions, ttlSeconds, bloom, blockSize, compression, value, inMemoryCompaction);
  }

  public FamilySpec withInMemoryCompaction(MemoryCompactionPolicy policy) {
    return new FamilySpec(
        name, maxVersions, ttlSeconds, bloom, blockSize, compression, inMemory, policy);
  }
}
