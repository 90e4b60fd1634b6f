package org.casebook.docs;

import static org.apache.hadoop.hbase.io.compress.Compression.Algorithm.SNAPPY;
import static org.apache.hadoop.hbase.io.compress.Compression.Algorithm.ZSTD;

import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.util.Bytes;
import org.casebook.core.schema.FamilySpec;
import org.casebook.core.schema.SplitPoints;
import org.casebook.core.schema.TableSpec;

/**
 * The store's tables in one namespace ({@code docs} unless the {@code namespace} setting names
 * another): one table per document type with families BI and DI (seed 002) and H (the history of
 * documents people corrected), the type registry and the source-day index.
 *
 * <p>Compression: ZSTD on the document and comment tables (20 million documents a day fill the
 * seed's disks: ZSTD took 3.2–5× less than none), Snappy on the registry and the by-source index;
 * figures in docs/SCALING.md.
 */
record DocsSchema(String namespace, TableName registry, TableName bySource) {
  static final String DEFAULT_NAMESPACE = "docs";

  /** The document families' names as bytes. */
  static final byte[] BI = Bytes.toBytes(Family.BI.name());

  static final byte[] DI = Bytes.toBytes(Family.DI.name());

  /**
   * History family of every document table: one cell per change of a document a person edited
   * ({@link DocsKeys#HISTORY}). A family of its own so that reading a document never reads its
   * history, and in the document's row so that a change and its entry are one atomic row write and
   * a delete removes both.
   */
  static final byte[] H = Bytes.toBytes("H");

  /** registry family and its one column: the type definition as JSON. */
  static final byte[] T = Bytes.toBytes("t");

  static final byte[] DEFINITION = DocsKeys.FIELD.encode("def");

  /** by_source family; entries are empty cells whose timestamp is the document version. */
  static final byte[] I = Bytes.toBytes("i");

  static final byte[] ENTRY = DocsKeys.FIELD.encode("e");

  /**
   * DI column of every document row, one cell of 17 bytes: the version (8-byte long, checked by
   * every write), the state (1 live, 0 deleted; a deleted row keeps its version, so a later one
   * follows it) and the base (8-byte long: the version of the last whole-document write — bulk
   * index, create, a PUT of a new document, a delete; cells older than it are not part of the
   * document). One cell instead of three: the region server's work grows with cells, not bytes.
   */
  static final byte[] VERSION = DocsKeys.FIELD.encode("_v");

  /**
   * DI column of a document a person edited ({@link CorrectionState}): the corrected fields with
   * the values the person left, shown over the family cells whatever the base, so a crawl's blind
   * write (which never writes it) cannot hide a correction. Absent on every other document.
   */
  static final byte[] CORRECTIONS = DocsKeys.FIELD.encode("_c");

  /** Offset of the state byte in the version cell (the base follows it). */
  static final int STATE_OFFSET = 8;

  /**
   * BI and DI column holding all of the family's fields but the counters (DI longs), as one binary
   * map ({@link DocCodec#encodeFamily}): a document row is 3 cells plus its counters.
   */
  static final byte[] FIELDS = DocsKeys.FIELD.encode("_d");

  /**
   * Document tables are pre-split evenly over the id hash that leads their keys (a comment's: its
   * parent's, so a thread stays in one region).
   */
  static final int DOC_REGIONS = 4;

  /**
   * The source-day index is pre-split on its salt byte, {@link DocsKeys#INDEX_BUCKETS} buckets in
   * this many regions. A site stays in one bucket, so a region's share is that of the sites hashing
   * into it: even once there are a few sites per region (the generator's 8 sites: 37 % at most).
   */
  static final int SOURCE_REGIONS = 4;

  static byte[] family(Family family) {
    return family == Family.BI ? BI : DI;
  }

  static DocsSchema in(String namespace) {
    return new DocsSchema(
        namespace,
        TableName.valueOf(namespace, "registry"),
        TableName.valueOf(namespace, "by_source"));
  }

  TableName table(String type) {
    return TableName.valueOf(namespace, type);
  }

  TableSpec typeTable(DocType type) {
    String keyDoc = type.isChild() ? DocsKeys.COMMENT.shape() : DocsKeys.DOC.shape();
    return new TableSpec(
        table(type.name()),
        List.of(
            FamilySpec.of("BI").withCompression(ZSTD),
            FamilySpec.of("DI").withCompression(ZSTD).withInMemory(true),
            // Read only when someone opens a document's history: not kept in memory.
            FamilySpec.of("H").withCompression(ZSTD)),
        SplitPoints.uniform(DOC_REGIONS),
        keyDoc + "; BI, DI: " + DocsKeys.FIELD.shape() + "; H: " + DocsKeys.HISTORY.shape());
  }

  List<TableSpec> tables(List<DocType> types) {
    List<TableSpec> out = new ArrayList<>();
    out.add(
        new TableSpec(
            registry,
            List.of(FamilySpec.of("t").withCompression(SNAPPY)),
            SplitPoints.none(),
            DocsKeys.TYPE.shape() + "; t: " + DocsKeys.FIELD.shape()));
    out.add(
        new TableSpec(
            bySource,
            List.of(FamilySpec.of("i").withCompression(SNAPPY)),
            sourceSplits(),
            DocsKeys.SOURCE_DAY.shape()));
    for (DocType t : types) {
      out.add(typeTable(t));
    }
    return out;
  }

  /** The first salt bucket of each region but the first: 4, 8 and 12 of 16. */
  private static SplitPoints sourceSplits() {
    int perRegion = DocsKeys.INDEX_BUCKETS / SOURCE_REGIONS;
    List<byte[]> points = new ArrayList<>();
    for (int r = 1; r < SOURCE_REGIONS; r++) {
      points.add(new byte[] {(byte) (r * perRegion)});
    }
    return SplitPoints.of(points, SOURCE_REGIONS + " regions of " + perRegion + " salt buckets");
  }
}
