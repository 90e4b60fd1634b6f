package org.casebook.core.access;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.casebook.core.HBaseRuntime;
import org.casebook.core.page.Page;
import org.casebook.core.page.PageRequest;
import org.casebook.core.schema.SchemaManager;
import org.casebook.core.testing.EmbeddedHBase;
import org.casebook.core.testing.TestIds;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(EmbeddedHBase.class)
class AuditTableIT {
  private static final Instant T0 = Instant.parse("2026-11-29T06:00:00Z");

  private static AuditEntry entry(int second, String who, String system) {
    return new AuditEntry(
        T0.plusSeconds(second), who, system, Action.WRITE, "POST /x/" + second, "204", "local");
  }

  @Test
  void entriesListNewestFirstByRangeAndCallerAndSystemAcrossPages(HBaseRuntime runtime)
      throws Exception {
    TableName name = TableName.valueOf(TestIds.unique("audit").replace('-', '_'));
    new SchemaManager(runtime.connection()).ensure(AuditTable.spec(name, Duration.ofDays(30)));
    try (Admin admin = runtime.connection().getAdmin()) {
      assertThat(admin.getDescriptor(name).getColumnFamilies()[0].getTimeToLive())
          .as("the retention is the family's TTL")
          .isEqualTo(30 * 86_400);
    }
    try (AuditTable trail =
        AuditTable.open(runtime.connection(), name, new SimpleMeterRegistry())) {
      for (int s = 0; s < 10; s++) {
        trail.record(entry(s, s % 2 == 0 ? "writer" : "admin", s < 5 ? "tsdb" : "banknote"));
      }
      // Two entries of the same millisecond are two rows.
      trail.record(entry(3, "writer", "tsdb"));
      trail.flush();
      Instant from = T0.plusSeconds(2);
      Instant to = T0.plusSeconds(9);
      List<String> all = new ArrayList<>();
      Optional<String> cursor = Optional.empty();
      do {
        Page<AuditEntry> p =
            trail.list(from, to, Optional.empty(), Optional.empty(), new PageRequest(3, cursor));
        assertThat(p.items().size()).isLessThanOrEqualTo(3);
        p.items().forEach(e -> all.add(e.what()));
        cursor = p.next();
      } while (cursor.isPresent());
      assertThat(all)
          .containsExactly(
              "POST /x/8",
              "POST /x/7",
              "POST /x/6",
              "POST /x/5",
              "POST /x/4",
              "POST /x/3",
              "POST /x/3",
              "POST /x/2");
      assertThat(
              trail
                  .list(
                      T0,
                      T0.plusSeconds(60),
                      Optional.of("writer"),
                      Optional.of("tsdb"),
                      PageRequest.first(100))
                  .items())
          .extracting(AuditEntry::what)
          .containsExactly("POST /x/4", "POST /x/3", "POST /x/2", "POST /x/0");
    }
    TableName fresh = TableName.valueOf(TestIds.unique("audit").replace('-', '_'));
    AuditTable.recordNow(runtime.connection(), fresh, entry(1, "cli:ops", "platform"));
    try (AuditTable trail =
        AuditTable.open(runtime.connection(), fresh, new SimpleMeterRegistry())) {
      AuditEntry e =
          trail
              .list(T0, T0.plusSeconds(5), Optional.empty(), Optional.empty(), PageRequest.first(5))
              .items()
              .get(0);
      assertThat(e).isEqualTo(entry(1, "cli:ops", "platform"));
    }
  }
}
