package org.casebook.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.io.compress.Compression;
import org.casebook.core.CasebookSystem;
import org.casebook.core.schema.FamilySpec;
import org.casebook.core.schema.TableSpec;
import org.casebook.core.settings.SettingSources;
import org.junit.jupiter.api.Test;

/**
 * Every family of every system declares its compression, chosen by {@code bench storage}: none is
 * left uncompressed by default.
 */
class StorageDeclarationsTest {
  @Test
  void everyFamilyOfEverySystemDeclaresACodec() {
    List<String> uncompressed = new ArrayList<>();
    int families = 0;
    List<CasebookSystem> systems =
        Systems.load().stream()
            .filter(s -> !s.getClass().getPackageName().startsWith("org.casebook.server."))
            .toList();
    assertThat(systems).hasSizeGreaterThanOrEqualTo(7);
    for (CasebookSystem s : systems) {
      for (TableSpec t : Systems.tables(s, SettingSources.none())) {
        for (FamilySpec f : t.families()) {
          families++;
          if (f.compression() == Compression.Algorithm.NONE) {
            uncompressed.add(t.name().getNameAsString() + ":" + f.name());
          }
        }
      }
    }
    assertThat(families).isGreaterThan(30);
    assertThat(uncompressed).as("families without a codec").isEmpty();
  }
}
