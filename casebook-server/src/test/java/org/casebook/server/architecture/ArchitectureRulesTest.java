package org.casebook.server.architecture;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The rules catch what they are for: a planted system ({@code …architecture.planted}) whose service
 * builds a {@code Put}, whose service takes a Jackson tree, whose service runs MapReduce and whose
 * service names another system; and they pass its classes that keep the direction.
 */
class ArchitectureRulesTest {
  private static final String ROOT = "org.casebook.server.architecture.planted";
  private static final ArchitectureRules RULES = new ArchitectureRules("planted", ROOT);
  private static final JavaClasses PLANTED = new ClassFileImporter().importPackages(ROOT);

  @Test
  void hbaseClientOutsideAStoreFails() {
    assertThatThrownBy(() -> RULES.hbaseClientAtTheBottom().check(PLANTED))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("PlantedService")
        .hasMessageContaining("org.apache.hadoop.hbase.client.Put")
        .hasMessageNotContaining("PlantedStore");
  }

  @Test
  void aWireTypeOutsideWireFails() {
    assertThatThrownBy(() -> RULES.wireAtTheEdge().check(PLANTED))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("PlantedService")
        .hasMessageContaining("com.fasterxml.jackson.databind.JsonNode")
        .hasMessageNotContaining("PlantedRoutes");
  }

  @Test
  void mapReduceOutsideBatchFails() {
    assertThatThrownBy(() -> RULES.mapReduceInBatch().check(PLANTED))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("PlantedService")
        .hasMessageContaining("org.apache.hadoop.mapreduce.Job")
        .hasMessageNotContaining("PlantedJob");
  }

  @Test
  void anotherSystemFails() {
    assertThatThrownBy(() -> RULES.onlyCore(List.of("org.casebook.tsdb")).check(PLANTED))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("org.casebook.tsdb.TsdbConfig");
  }

  @Test
  void theClassesThatKeepTheDirectionPass() {
    JavaClasses clean =
        new ClassFileImporter()
            .importClasses(
                org.casebook.server.architecture.planted.PlantedStore.class,
                org.casebook.server.architecture.planted.wire.PlantedRoutes.class,
                org.casebook.server.architecture.planted.batch.PlantedJob.class);
    for (var rule : RULES.all(List.of("org.casebook.tsdb"))) {
      assertThatCode(() -> rule.check(clean)).doesNotThrowAnyException();
    }
  }
}
