package org.casebook.banknote;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What the bank shows when a customer disputes a note (a counterfeit from an ATM, say): the note's
 * custody chain up to the payout in question, oldest first — taken in, sorted in a sorter's batch,
 * counted into a bundle, loaded into the paying ATM's cassette, paid out — as far as the stored
 * readings' operations and device kinds tell, each reading with the serial image where the device's
 * file had one; what was read after the payout (the customer bringing it back); and how many
 * readings came before the chain.
 *
 * @param paidOut the newest withdrawal (ATM or counter), null when the note was never paid out
 * @param chain the readings since the withdrawal before {@code paidOut}, through {@code paidOut}
 * @param after the readings after {@code paidOut}
 * @param earlier how many readings came before the chain
 * @param clones the serial's impossible readings (denomination, edition or place)
 */
public record DisputePack(
    String serial,
    Note paidOut,
    List<Step> chain,
    List<Step> after,
    int earlier,
    List<ProbableClone> clones) {

  public DisputePack {
    Objects.requireNonNull(serial, "serial is null");
    chain = List.copyOf(chain);
    after = List.copyOf(after);
    clones = List.copyOf(clones);
  }

  /** A link of the chain: what happened to the note there. */
  public enum Stage {
    /** Taken in: an ATM's or a counter's deposit. */
    DEPOSIT,
    /** Read by a sorter, in the sorter's batch (its run). */
    SORTING,
    /** Counted, as notes are counted into a bundle (counters, teller machines). */
    BUNDLE,
    /**
     * In the paying ATM's cassette: no device reads a cassette load, so this link is inferred
     * between the reading before the payout and the payout itself.
     */
    CASSETTE,
    /** Paid out: an ATM's or a counter's withdrawal. */
    PAYOUT
  }

  /**
   * One link. {@code note} is the reading (with its image, if stored); an inferred link has none,
   * only the device and the times it lies between.
   */
  public record Step(
      Stage stage, Note note, boolean inferred, String device, Instant after, Instant before) {
    public Step {
      Objects.requireNonNull(stage, "stage is null");
    }

    static Step of(Note n) {
      return new Step(DisputePack.stage(n), n, false, n.device(), null, null);
    }
  }

  static Stage stage(Note n) {
    return switch (n.operation()) {
      case DEPOSIT -> Stage.DEPOSIT;
      case SORTING -> Stage.SORTING;
      case COUNTING -> Stage.BUNDLE;
      case WITHDRAWAL -> Stage.PAYOUT;
    };
  }

  /**
   * The pack of {@code serial} from its readings, oldest first: the chain ends at the newest
   * withdrawal and starts after the withdrawal before it (the note's last stay in the bank's
   * hands); an ATM payout whose previous reading was not at that ATM gets an inferred cassette
   * link.
   */
  static DisputePack of(String serial, List<Note> oldestFirst, List<ProbableClone> clones) {
    int payout = -1;
    for (int i = oldestFirst.size() - 1; i >= 0; i--) {
      if (oldestFirst.get(i).operation() == Operation.WITHDRAWAL) {
        payout = i;
        break;
      }
    }
    int end = payout < 0 ? oldestFirst.size() - 1 : payout;
    int start = 0;
    for (int i = end - 1; i >= 0; i--) {
      if (oldestFirst.get(i).operation() == Operation.WITHDRAWAL) {
        start = i + 1;
        break;
      }
    }
    List<Step> chain = new ArrayList<>();
    for (int i = start; i <= end && i < oldestFirst.size(); i++) {
      Note n = oldestFirst.get(i);
      if (i == payout && n.deviceKind() == DeviceKind.ATM) {
        Note before = i > start ? oldestFirst.get(i - 1) : null;
        boolean inItsCassette =
            before != null
                && before.device().equals(n.device())
                && before.operation() == Operation.DEPOSIT;
        if (!inItsCassette) {
          chain.add(
              new Step(
                  Stage.CASSETTE,
                  null,
                  true,
                  n.device(),
                  before == null ? null : before.time(),
                  n.time()));
        }
      }
      chain.add(Step.of(n));
    }
    List<Step> after = new ArrayList<>();
    if (payout >= 0) {
      for (int i = payout + 1; i < oldestFirst.size(); i++) {
        after.add(Step.of(oldestFirst.get(i)));
      }
    }
    return new DisputePack(
        serial, payout < 0 ? null : oldestFirst.get(payout), chain, after, start, clones);
  }
}
