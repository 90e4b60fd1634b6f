package org.casebook.banknote.fsn;

import java.util.Objects;

/**
 * What a file's header says besides its layout. The 2014 header says nothing more; the 2018 header
 * names the bank, the machine and its type, and the reporting branch (empty strings when absent).
 */
public record FsnHeader(
    FsnVariant variant, String bank, String machine, String machineType, String branch) {
  public FsnHeader {
    Objects.requireNonNull(variant, "variant is null");
    Objects.requireNonNull(bank, "bank is null");
    Objects.requireNonNull(machine, "machine is null");
    Objects.requireNonNull(machineType, "machineType is null");
    Objects.requireNonNull(branch, "branch is null");
  }

  public static FsnHeader of(FsnVariant variant) {
    return new FsnHeader(variant, "", "", "", "");
  }
}
