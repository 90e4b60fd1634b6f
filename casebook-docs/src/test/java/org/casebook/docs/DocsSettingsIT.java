package org.casebook.docs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.OptionalLong;
import org.apache.hadoop.hbase.client.Admin;
import org.casebook.core.HBaseRuntime;
import org.casebook.core.InvalidInputException;
import org.casebook.core.NotFoundException;
import org.casebook.core.Platform;
import org.casebook.core.schema.SchemaManager;
import org.casebook.core.testing.EmbeddedHBase;
import org.casebook.core.testing.TestIds;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The {@code namespace} setting: a store there creates its own tables and keeps its documents apart
 * from the default store's; a context that is not the system's own gets the default.
 */
@ExtendWith(EmbeddedHBase.class)
class DocsSettingsIT {
  @Test
  void aStoreInAnotherNamespaceCreatesItsTablesAndKeepsItsDocumentsApart(HBaseRuntime runtime)
      throws Exception {
    // Unique across runs too: a namespace outlives a test run that dies before its clean-up.
    String namespace =
        "t_"
            + TestIds.unique("ns").replace('-', '_')
            + "_"
            + Long.toString(System.currentTimeMillis(), 36);
    String id = "https://" + namespace.replace('_', '-') + ".example.com/p";
    SchemaManager schemas = new SchemaManager(runtime.connection());
    schemas.ensureAll(DocsService.schemas(DocsSchema.DEFAULT_NAMESPACE));
    try (Platform platform = Platform.create(runtime, EmbeddedHBase.dataDir())) {
      DocsService own =
          new DocsService(
              platform.contextFor(
                  new DocsSystem().descriptor(), Map.of("docs.namespace", namespace)));
      try (Admin admin = runtime.connection().getAdmin()) {
        assertThat(admin.listTableNamesByNamespace(namespace))
            .as("registry, by_source and the default types' tables")
            .hasSize(DocsService.schemas(namespace).size());
      }
      own.put("blog", id, Map.of("title", "mine"), OptionalLong.empty());
      assertThat(own.get("blog", id).fields()).containsEntry("title", "mine");

      DocsService byDefault = new DocsService(platform.contextFor("a-tool"));
      assertThatThrownBy(() -> byDefault.get("blog", id)).isInstanceOf(NotFoundException.class);
    } finally {
      schemas.dropNamespace(namespace);
    }
  }

  @Test
  void aNamespaceMustBeAPlainName(HBaseRuntime runtime) {
    try (Platform platform = Platform.create(runtime, EmbeddedHBase.dataDir())) {
      assertThatThrownBy(
              () ->
                  platform.contextFor(
                      new DocsSystem().descriptor(), Map.of("docs.namespace", "Not:Plain")))
          .isInstanceOf(InvalidInputException.class)
          .extracting(e -> ((InvalidInputException) e).field())
          .isEqualTo("docs.namespace");
    }
  }
}
