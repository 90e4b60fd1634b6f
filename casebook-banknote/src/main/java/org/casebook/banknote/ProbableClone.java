package org.casebook.banknote;

import java.util.List;

/**
 * An impossible history: one serial read as a note of another denomination (or currency) or edition
 * than the reading before it. A genuine note never changes either, so one of the two is probably a
 * counterfeit carrying a genuine note's serial.
 *
 * @param differs what changed: {@code denomination}, {@code edition}
 * @param earlier the reading before
 * @param later the reading that contradicts it
 */
public record ProbableClone(List<String> differs, Note earlier, Note later) {
  public ProbableClone {
    differs = List.copyOf(differs);
  }
}
