package org.casebook.core.schema;

import java.util.Objects;
import org.apache.hadoop.hbase.MemoryCompactionPolicy;
import org.apache.hadoop.hbase.io.compress.Compression;
import org.apache.hadoop.hbase.io.encoding.DataBlockEncoding;
import org.apache.hadoop.hbase.regionserver.BloomType;

/**
 * One column family, as code. Only the attributes Casebook cares about are compared when an
 * existing table is checked: max versions, TTL, bloom filter, block size, compression, in-memory,
 * in-memory compaction and data block encoding (the two differences changed in place rather than
 * refused).
 *
 * @param ttlSeconds time to live, or {@link #FOREVER}
 * @param compression the codec wanted; if this runtime lacks it, NONE is used and logged
 * @param inMemoryCompaction how the memstore compacts itself before a flush; null: not declared (a
 *     new table gets the cluster's default, an existing table's family keeps its own). A family
 *     whose cells are rewritten over and over (counters, schedules) is cheaper to read with {@link
 *     MemoryCompactionPolicy#EAGER}, which keeps only the newest versions in memory.
 * @param dataBlockEncoding how cells are laid out in a store file's data blocks; null: not declared
 *     (a new table gets HBase's default, none). {@link DataBlockEncoding#ROW_INDEX_V1} adds an
 *     index of the rows to each block, so a seek to a row inside a block is a binary search, not a
 *     walk over every cell before it; a change applies to the files written after it.
 */
public record FamilySpec(
    String name,
    int maxVersions,
    int ttlSeconds,
    BloomType bloom,
    int blockSize,
    Compression.Algorithm compression,
    boolean inMemory,
    MemoryCompactionPolicy inMemoryCompaction,
    DataBlockEncoding dataBlockEncoding) {
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
        null,
        null);
  }

  public FamilySpec withMaxVersions(int versions) {
    return new FamilySpec(
        name,
        versions,
        ttlSeconds,
        bloom,
        blockSize,
        compression,
        inMemory,
        inMemoryCompaction,
        dataBlockEncoding);
  }

  public FamilySpec withTtlSeconds(int ttl) {
    return new FamilySpec(
        name,
        maxVersions,
        ttl,
        bloom,
        blockSize,
        compression,
        inMemory,
        inMemoryCompaction,
        dataBlockEncoding);
  }

  public FamilySpec withBloom(BloomType type) {
    return new FamilySpec(
        name,
        maxVersions,
        ttlSeconds,
        type,
        blockSize,
        compression,
        inMemory,
        inMemoryCompaction,
        dataBlockEncoding);
  }

  public FamilySpec withBlockSize(int bytes) {
    return new FamilySpec(
        name,
        maxVersions,
        ttlSeconds,
        bloom,
        bytes,
        compression,
        inMemory,
        inMemoryCompaction,
        dataBlockEncoding);
  }

  public FamilySpec withCompression(Compression.Algorithm algorithm) {
    return new FamilySpec(
        name,
        maxVersions,
        ttlSeconds,
        bloom,
        blockSize,
        algorithm,
        inMemory,
        inMemoryCompaction,
        dataBlockEncoding);
  }

  public FamilySpec withInMemory(boolean value) {
    return new FamilySpec(
        name,
        maxVersions,
        ttlSeconds,
        bloom,
        blockSize,
        compression,
        value,
        inMemoryCompaction,
        dataBlockEncoding);
  }

  public FamilySpec withInMemoryCompaction(MemoryCompactionPolicy policy) {
    return new FamilySpec(
        name,
        maxVersions,
        ttlSeconds,
        bloom,
        blockSize,
        compression,
        inMemory,
        policy,
        dataBlockEncoding);
  }

  public FamilySpec withDataBlockEncoding(DataBlockEncoding encoding) {
    return new FamilySpec(
        name,
        maxVersions,
        ttlSeconds,
        bloom,
        blockSize,
        compression,
        inMemory,
        inMemoryCompaction,
        encoding);
  }
}
