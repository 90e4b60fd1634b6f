package org.casebook.banknote;

/** What the device was doing when it read the note. */
public enum Operation {
  DEPOSIT,
  WITHDRAWAL,
  SORTING,
  COUNTING
}
