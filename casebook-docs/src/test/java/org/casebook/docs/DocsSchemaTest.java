package org.casebook.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.TableName;
import org.casebook.core.hotspot.HotspotReport;
import org.casebook.core.testing.SplitPointChecks;
import org.casebook.docs.gen.DocGenerator;
import org.junit.jupiter.api.Test;

class DocsSchemaTest {
  private static final DocsSchema SCHEMA = DocsSchema.in(DocsSchema.DEFAULT_NAMESPACE);

  /**
   * The generator's default file (1,000 pages with their comment threads, seed 2) keyed as a bulk
   * load keys it: every region of every type table and of the source-day index receives rows.
   */
  @Test
  void generatedDocumentsReachEveryRegion() {
    Instant start = Instant.parse("2026-09-01T00:00:00Z");
    DocGenerator gen = new DocGenerator(2, start, 7, 2000, 500);
    // Targets reads the type registry only for a comment's parent, which this does not ask for.
    Targets targets = new Targets(SCHEMA, null, Clock.fixed(start, ZoneOffset.UTC));
    Map<String, DocType> types = new HashMap<>();
    DefaultTypes.ALL.forEach(t -> types.put(t.name(), t));
    Map<TableName, List<byte[]>> keys = new HashMap<>();
    for (int page = 0; page < 1000; page++) {
      for (DocGenerator.Generated g : gen.next()) {
        DocType type = types.get(g.type());
        Map<String, Object> values = FieldValues.typed(type, g.fields(), false);
        Target t =
            g.parentId() == null
                ? targets.of(type, g.id())
                : targets.newComment(type, types.get(g.parentType()), g.parentId(), g.id(), values);
        keys.computeIfAbsent(t.table(), n -> new ArrayList<>()).add(t.row());
        byte[] entry = Targets.indexEntry(t, values);
        if (entry != null) {
          keys.computeIfAbsent(SCHEMA.bySource(), n -> new ArrayList<>()).add(entry);
        }
      }
    }
    List<HotspotReport.Result> results =
        SplitPointChecks.verify(SCHEMA.tables(DefaultTypes.ALL), keys);
    assertThat(results).hasSize(5).allMatch(r -> r.regions() == 4);
  }
}
