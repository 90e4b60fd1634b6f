package org.casebook.banknote.gen;

import java.util.SplittableRandom;

/**
 * Serials and denominations as the generator draws them: RMB-like prefixes (two letters, no I, O or
 * V), the denominations' shares, editions, and a pool of the notes in circulation (up to 200,000
 * serials seen, each with its denomination) that come back at other devices.
 */
final class Serials {
  private static final String LETTERS = "ABCDEFGHJKLMNPQRSTUWXYZ"; // no I, O, V (as on RMB)
  private static final int[] DENOMINATIONS = {100, 50, 20, 10, 5, 1};
  private static final double[] DENOMINATION_SHARE = {0.60, 0.15, 0.10, 0.10, 0.03, 0.02};
  private static final int POOL = 200_000;

  /** The generator's own: the files of a seed depend on the order of every draw. */
  private final SplittableRandom random;

  private final String[] pool = new String[POOL];
  private final int[] poolDenomination = new int[POOL];
  private int poolSize;

  Serials(SplittableRandom random) {
    this.random = random;
  }

  /** Notes in circulation so far (at most the pool's size). */
  int circulating() {
    return poolSize;
  }

  /** The serial of circulating note {@code k}. */
  String serial(int k) {
    return pool[k];
  }

  /** The denomination of circulating note {@code k}. */
  int denomination(int k) {
    return poolDenomination[k];
  }

  /** Puts a note into circulation; a full pool replaces a random one. */
  void remember(String serial, int denomination) {
    int k = poolSize < POOL ? poolSize++ : random.nextInt(POOL);
    pool[k] = serial;
    poolDenomination[k] = denomination;
  }

  /** Two letters. */
  String prefix() {
    return "" + letter() + letter();
  }

  char letter() {
    return LETTERS.charAt(random.nextInt(LETTERS.length()));
  }

  /** A denomination in the shares cash has (100s most). */
  int denomination() {
    double x = random.nextDouble();
    for (int i = 0; i < DENOMINATIONS.length; i++) {
      x -= DENOMINATION_SHARE[i];
      if (x < 0) {
        return DENOMINATIONS[i];
      }
    }
    return 100;
  }

  /** The edition of an RMB note of {@code denomination}. */
  int edition(int denomination) {
    double x = random.nextDouble();
    if (denomination == 100) {
      return x < 0.7 ? 2015 : 2005;
    }
    return x < 0.5 ? 2019 : x < 0.9 ? 2005 : 1999;
  }
}
