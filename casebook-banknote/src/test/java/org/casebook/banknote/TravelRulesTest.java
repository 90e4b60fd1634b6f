package org.casebook.banknote;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TravelRulesTest {
  private static final TravelRules RULES = new TravelRules(900, 50);
  private static final Instant T = Instant.parse("2031-05-04T02:00:00Z");
  private static final BranchLocation BEIJING =
      new BranchLocation("0100-001", 39.9042, 116.4074, "Beijing");
  private static final BranchLocation URUMQI =
      new BranchLocation("0991-001", 43.8256, 87.6168, "Urumqi");
  private static final BranchLocation SHANGHAI =
      new BranchLocation("0210-001", 31.2304, 121.4737, "Shanghai");
  private static final Map<String, BranchLocation> LOCATED =
      Map.of(BEIJING.branch(), BEIJING, URUMQI.branch(), URUMQI, SHANGHAI.branch(), SHANGHAI);

  private static Note at(String branch, long seconds, long record) {
    return new Note(
        "QT12345678",
        100,
        "CNY",
        2019,
        "ATM-" + branch,
        DeviceKind.ATM,
        branch,
        Operation.WITHDRAWAL,
        T.plusSeconds(seconds),
        "T1",
        Verdict.GENUINE,
        List.of(),
        branch + ".fsn",
        record,
        null);
  }

  @Test
  void aLegFasterThanAPlaneIsAPlaceCloneWithItsWay() {
    TravelRules.Found f =
        RULES.check(List.of(at("0100-001", 0, 0), at("0991-001", 7200, 1)), LOCATED, n -> true);
    assertThat(f.clones()).hasSize(1);
    ProbableClone c = f.clones().get(0);
    assertThat(c.differs()).containsExactly("place");
    assertThat(c.travel().hours()).isEqualTo(2.0);
    assertThat(c.travel().distanceKm()).isBetween(2_400.0, 2_420.0);
    assertThat(c.travel().speedKmh()).isEqualTo(c.travel().distanceKm() / 2);
    assertThat(f.unlocated()).isZero();
  }

  @Test
  void aReadingWhosePlaceIsUnknownDoesNotHideAJumpBetweenTheTwoAroundIt() {
    TravelRules.Found f =
        RULES.check(
            List.of(at("0100-001", 0, 0), at("9999-404", 1800, 1), at("0991-001", 3600, 2)),
            LOCATED,
            n -> true);
    assertThat(f.unlocated()).isEqualTo(2);
    assertThat(f.clones())
        .singleElement()
        .satisfies(
            c -> {
              assertThat(c.differs()).containsExactly("place");
              assertThat(c.earlier().branch()).isEqualTo("0100-001");
              assertThat(c.later().branch()).isEqualTo("0991-001");
              assertThat(c.travel().hours()).isEqualTo(1.0);
            });
  }

  @Test
  void readingsInTheSameInstantAtFarBranchesAreImpossible() {
    TravelRules.Found f =
        RULES.check(List.of(at("0100-001", 0, 0), at("0991-001", 0, 1)), LOCATED, n -> true);
    assertThat(f.clones())
        .singleElement()
        .satisfies(
            c -> {
              assertThat(c.differs()).containsExactly("place");
              assertThat(c.travel().hours()).isZero();
              assertThat(c.travel().speedKmh()).isInfinite();
            });
  }

  @Test
  void onlyAdjacentReadingsArePairedAndUnlocatedPairsAreCounted() {
    // Beijing, Shanghai, Urumqi: each leg slower than a plane; then to and from a branch of no
    // known place, and twice at the same branch.
    List<Note> chain =
        List.of(
            at("0100-001", 0, 0),
            at("0210-001", 7_200, 1),
            at("0991-001", 7_200 + 4 * 3_600 + 1_800, 2),
            at("9999-404", 30 * 3_600, 3),
            at("0991-001", 31 * 3_600, 4),
            at("0991-001", 31 * 3_600 + 1, 5));
    TravelRules.Found f = RULES.check(chain, LOCATED, n -> true);
    assertThat(f.clones()).isEmpty();
    assertThat(f.unlocated()).as("to and from the unlocated branch").isEqualTo(2);
    // A pair concerns the check when either reading does.
    TravelRules.Found urumqiOnly =
        RULES.check(chain, LOCATED, n -> n.record() == 4 || n.record() == 5);
    assertThat(urumqiOnly.unlocated()).isEqualTo(1);
  }

  @Test
  void branchesCloserThanTheMinimumDistanceAreNeverFlagged() {
    BranchLocation near = new BranchLocation("0100-002", 39.9042, 116.5245, "Beijing east");
    Map<String, BranchLocation> located = Map.of(BEIJING.branch(), BEIJING, near.branch(), near);
    TravelRules.Found f =
        RULES.check(List.of(at("0100-001", 0, 0), at("0100-002", 60, 1)), located, n -> true);
    assertThat(f.clones()).isEmpty();
    TravelRules.Found noMinimum =
        new TravelRules(900, 0)
            .check(List.of(at("0100-001", 0, 0), at("0100-002", 0, 1)), located, n -> true);
    assertThat(noMinimum.clones())
        .singleElement()
        .extracting(ProbableClone::differs)
        .isEqualTo(List.of("place"));
  }
}
