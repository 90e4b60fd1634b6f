package org.casebook.docs;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.casebook.core.HBaseRuntime;
import org.casebook.core.Platform;
import org.casebook.core.page.Page;
import org.casebook.core.page.PageRequest;
import org.casebook.core.schema.SchemaManager;
import org.casebook.core.testing.EmbeddedHBase;

/**
 * The document store of the integration tests, on the shared embedded HBase: its tables ensured, a
 * service on a platform of its own, and the source-day listing read to its end.
 */
final class DocsTestStore implements AutoCloseable {
  private final Platform platform;
  final DocsService docs;

  DocsTestStore(HBaseRuntime runtime) {
    new SchemaManager(runtime.connection()).ensureAll(DocsService.schemas("docs"));
    platform = Platform.create(runtime, EmbeddedHBase.dataDir());
    docs = new DocsService(platform.contextFor(new DocsSystem().descriptor()));
  }

  /** Ids of a source's documents of a day, oldest first, following the cursor page after page. */
  List<String> listAll(String type, String source, String day, int pageSize) {
    List<String> out = new ArrayList<>();
    Optional<String> cursor = Optional.empty();
    do {
      Page<Document> p = docs.bySource(type, source, day, new PageRequest(pageSize, cursor));
      p.items().forEach(d -> out.add(d.id()));
      cursor = p.next();
    } while (cursor.isPresent());
    return out;
  }

  @Override
  public void close() {
    platform.close();
  }
}
