package org.casebook.trails;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.LocalDate;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TrailPlannerTest {
  private static final LocalDate DAY1 = LocalDate.parse("2026-09-01");

  @Test
  void autoScansWhenEveryBehaviourIsWantedAndGetsOtherwise() {
    TrailQuery all = new TrailQuery(List.of("a", "b"), DAY1, DAY1.plusDays(2), Set.of(), Set.of());
    TrailPlan scan = TrailPlanner.plan(all, PlanMode.AUTO, Behaviours.BUILT_INS);
    int first = TrailsKeys.epochDay(DAY1);
    assertThat(scan.kind()).isEqualTo(TrailPlan.Kind.SCAN);
    assertThat(scan.scans())
        .containsExactly(
            new TrailPlan.UserScan(
                "a", first, first + 2, Set.copyOf(Behaviour.BUILT_INS), List.of()),
            new TrailPlan.UserScan(
                "b", first, first + 2, Set.copyOf(Behaviour.BUILT_INS), List.of()));
    assertThat(scan.gets()).isEmpty();

    TrailQuery some =
        new TrailQuery(
            List.of("a"),
            DAY1,
            DAY1.plusDays(1),
            Set.of(Behaviour.PLAY, Behaviour.ORDER),
            Set.of("price"));
    TrailPlan gets = TrailPlanner.plan(some, PlanMode.AUTO, Behaviours.BUILT_INS);
    assertThat(gets.kind()).isEqualTo(TrailPlan.Kind.GETS);
    assertThat(gets.gets())
        .containsExactly(
            new TrailPlan.RowGet("a", first, Behaviour.PLAY, List.of("contentId")),
            new TrailPlan.RowGet("a", first, Behaviour.ORDER, List.of("price")),
            new TrailPlan.RowGet("a", first + 1, Behaviour.PLAY, List.of("contentId")),
            new TrailPlan.RowGet("a", first + 1, Behaviour.ORDER, List.of("price")));
  }

  @Test
  void forcedPlansAreHonouredAndScansCarryTheUnionOfFieldPrefixes() {
    TrailQuery all = new TrailQuery(List.of("a"), DAY1, DAY1, Set.of(), Set.of("price", "page"));
    assertThat(TrailPlanner.plan(all, PlanMode.GETS, Behaviours.BUILT_INS).gets())
        .hasSize(4)
        .extracting(TrailPlan.RowGet::fields)
        .containsExactly(
            List.of("device"), List.of("contentId"), List.of("page"), List.of("price"));
    TrailPlan scan = TrailPlanner.plan(all, PlanMode.SCAN, Behaviours.BUILT_INS);
    assertThat(scan.scans())
        .singleElement()
        .satisfies(
            s -> assertThat(s.fields()).containsExactly("device", "contentId", "page", "price"));
  }
}
