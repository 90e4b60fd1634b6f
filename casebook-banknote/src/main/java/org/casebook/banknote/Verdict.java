package org.casebook.banknote;

/**
 * The device's verdict on a note. FSN's tfFlag 0 (counterfeit or suspect) is {@link #SUSPECT}; 1
 * (genuine), 2 (damaged, unfit for circulation) and 3 (old edition) are {@link #GENUINE}.
 */
public enum Verdict {
  GENUINE,
  SUSPECT
}
