package org.casebook.banknote.fsn;

import java.util.Arrays;
import java.util.Objects;

/**
 * One FSN record's fields as stored, before any interpretation: the packed DOS date and time, the
 * counterfeit flag, the three error codes, the currency characters, the edition code, the
 * denomination, the serial characters (CharNUM of them, as u16 values), the machine id (2014 format
 * only), Reserve1 (2014 only) and the image block (header and used character slots), or null.
 */
public record FsnRecord(
    int date,
    int time,
    int tfFlag,
    int[] errorCodes,
    String currency,
    int edition,
    long denomination,
    int charCount,
    int[] serial,
    String machine,
    int reserve1,
    byte[] image) {
  public FsnRecord {
    errorCodes = errorCodes.clone();
    serial = serial.clone();
    image = image == null ? null : image.clone();
    Objects.requireNonNull(currency, "currency is null");
    Objects.requireNonNull(machine, "machine is null");
  }

  @Override
  public int[] errorCodes() {
    return errorCodes.clone();
  }

  @Override
  public int[] serial() {
    return serial.clone();
  }

  @Override
  public byte[] image() {
    return image == null ? null : image.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof FsnRecord r
        && date == r.date
        && time == r.time
        && tfFlag == r.tfFlag
        && Arrays.equals(errorCodes, r.errorCodes)
        && currency.equals(r.currency)
        && edition == r.edition
        && denomination == r.denomination
        && charCount == r.charCount
        && Arrays.equals(serial, r.serial)
        && machine.equals(r.machine)
        && reserve1 == r.reserve1
        && Arrays.equals(image, r.image);
  }

  @Override
  public int hashCode() {
    return Objects.hash(date, time, Arrays.hashCode(serial), machine);
  }

  @Override
  public String toString() {
    StringBuilder s = new StringBuilder();
    for (int c : serial) {
      s.appendCodePoint(c);
    }
    return "FsnRecord[" + s + " " + currency + " " + denomination + " " + machine + "]";
  }
}
