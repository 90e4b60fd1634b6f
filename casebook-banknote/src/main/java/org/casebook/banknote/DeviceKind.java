package org.casebook.banknote;

/**
 * The machines that report serial numbers. The FSN code is the "Machine_Type" nibble of a 2014
 * record's Reserve1 field (PBoC document 2015-10): 1 sorter, 2 cash-in/dispense machine (ATM), 3
 * counter, 4 exchange machine (a teller's counter-top machine here).
 */
public enum DeviceKind {
  ATM(2),
  SORTER(1),
  COUNTER(3),
  TELLER(4);

  private final int fsnCode;

  DeviceKind(int fsnCode) {
    this.fsnCode = fsnCode;
  }

  /** The Machine_Type code an FSN file uses for this kind. */
  public int fsnCode() {
    return fsnCode;
  }

  /** The kind of an FSN Machine_Type code, or null for 0 (undefined) and unknown codes. */
  public static DeviceKind ofFsnCode(int code) {
    for (DeviceKind k : values()) {
      if (k.fsnCode == code) {
        return k;
      }
    }
    return null;
  }

  /** What this kind of machine does when a file does not say. */
  public Operation defaultOperation() {
    return switch (this) {
      case SORTER -> Operation.SORTING;
      case COUNTER, TELLER -> Operation.COUNTING;
      case ATM -> Operation.WITHDRAWAL;
    };
  }
}
