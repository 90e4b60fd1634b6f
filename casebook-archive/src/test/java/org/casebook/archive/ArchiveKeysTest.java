package org.casebook.archive;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.hbase.util.Bytes;
import org.casebook.core.key.Hashing;
import org.casebook.core.key.KeyBuilder;
import org.casebook.core.key.KeyLayout;
import org.casebook.core.testing.KeyLayoutChecks;
import org.junit.jupiter.api.Test;

class ArchiveKeysTest {
  private static final String UID = "1000000042";

  @Test
  void everyDeclaredLayoutEncodesDecodesAndKeepsItsOrder() {
    for (KeyLayout layout : ArchiveKeys.declared()) {
      KeyLayoutChecks.verify(layout, 500);
    }
    for (Layout l :
        new Layout[] {
          new Layout(1, true), new Layout(3, true), new Layout(80, true), new Layout(5, false)
        }) {
      for (KeyLayout layout : ArchiveKeys.of(l).all()) {
        KeyLayoutChecks.verify(layout, 300);
      }
    }
  }

  @Test
  void theLayoutsWriteTheSameBytesAsTheSeedsKeyBuilderRule() {
    int regions = 8;
    Layout layout = new Layout(regions, true);
    int region = Hashing.region(UID.getBytes(StandardCharsets.UTF_8), regions);
    // What the archive wrote before the layouts (KeyBuilder by hand): existing tables stay
    // readable.
    byte[] user = KeyBuilder.create().addRegionId(region, regions).addString(UID).build();
    byte[] status =
        KeyBuilder.create()
            .addRegionId(region, regions)
            .addString(UID)
            .addReverseTimestamp(3001)
            .build();
    byte[] index =
        KeyBuilder.create()
            .addRegionId(Hashing.region(Bytes.toBytes(3001L), regions), regions)
            .addLong(3001)
            .build();
    assertThat(layout.userRow(UID)).isEqualTo(user);
    assertThat(layout.statusRow(UID, 3001)).isEqualTo(status);
    assertThat(layout.indexRow(3001)).isEqualTo(index);
    assertThat(Bytes.toStringBinary(layout.userRow(UID)))
        .isEqualTo("\\x00\\x051000000042\\x00\\x01");
    assertThat(layout.statusIdOf(status)).isEqualTo(3001);

    Layout plain = new Layout(regions, false);
    assertThat(plain.userRow(UID)).isEqualTo(KeyBuilder.create().addString(UID).build());
    assertThat(plain.statusRow(UID, 3001))
        .isEqualTo(KeyBuilder.create().addString(UID).addReverseTimestamp(3001).build());
    assertThat(plain.indexRow(3001))
        .isEqualTo(KeyBuilder.create().addRegionId(0, 1).addLong(3001).build());
    assertThat(plain.statusIdOf(plain.statusRow(UID, 3001))).isEqualTo(3001);

    assertThat(ArchiveCellCodec.relationQualifier('F', "77"))
        .isEqualTo(KeyBuilder.create().addByte('F').addString("77").build());
    assertThat(ArchiveKeys.STATUS_QUALIFIER.encode(Bytes.toBytes(3001L)))
        .isEqualTo(Bytes.toBytes(3001L));
  }

  @Test
  void theReadmesWorkedExampleIsPrintedByTheLayouts() throws Exception {
    String readme = Files.readString(Path.of("README.md"));
    ArchiveKeys keys = ArchiveKeys.of(new Layout(8, true));
    assertThat(readme).contains("`" + keys.user().explain(UID) + "`");
    assertThat(readme).contains("`" + keys.status().explain(UID, 3001L) + "`");
    assertThat(readme).contains("`" + keys.index().explain(3001L) + "`");
  }

  @Test
  void aStatusRangeHoldsExactlyTheUsersStatuses() {
    Layout layout = new Layout(8, true);
    var range = layout.statusesOf(UID);
    assertThat(range.contains(layout.statusRow(UID, 1))).isTrue();
    assertThat(range.contains(layout.statusRow(UID, Long.MAX_VALUE))).isTrue();
    assertThat(range.contains(layout.statusRow("10000000420", 1))).isFalse();
    assertThat(range.contains(layout.statusRow("100000004", 1))).isFalse();
  }
}
