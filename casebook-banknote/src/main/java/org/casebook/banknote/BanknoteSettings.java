package org.casebook.banknote;

import java.time.ZoneId;
import java.util.List;
import org.casebook.core.settings.Setting;

/**
 * What an operator may set for the banknote system ({@code banknote.<name>} in the settings file
 * and {@code --set}, {@code CASEBOOK_BANKNOTE_<NAME>} in the environment).
 */
final class BanknoteSettings {
  /** The bank's one time zone: {@code CASEBOOK_BANKNOTE_ZONE}, as documented before settings. */
  static final Setting<ZoneId> ZONE =
      Setting.ofZone(
          "zone",
          FileContext.DEFAULT_ZONE,
          "The bank's time zone: the days suspect notes are listed under, local times and dates in"
              + " queries, FSN pieces' local times unless the agent names a zone.");

  /** The tables' namespace: another one keeps a second collector's (or a benchmark's) apart. */
  static final Setting<String> NAMESPACE =
      Setting.ofNamespace(
          BanknoteSchema.DEFAULT_NAMESPACE,
          "HBase namespace of the notes, devices, suspects and batches tables; the tables of a"
              + " namespace other than banknote are created when the system starts on it.");

  /** Years a reading is kept (a bank's rule); a family TTL on every table. */
  static final Setting<Integer> RETENTION_YEARS =
      Setting.ofInt(
          "retention-years",
          0,
          0,
          60,
          "Years (of 365 days) a note reading is kept after it was stored, in every banknote table"
              + " (0: forever); a family TTL, so HBase drops older readings itself.");

  /** The fastest a note is taken to travel between two readings: a note carried on a plane. */
  static final Setting<Integer> CLONE_MAX_SPEED_KMH =
      Setting.ofInt(
          "clone-max-speed-kmh",
          900,
          1,
          100_000,
          "Fastest plausible travel of a note, km/h: a serial read at two branches further apart"
              + " than this allows in the time between is a probable clone.");

  /** Branches of one city exchange cash within minutes: no travel this short is flagged. */
  static final Setting<Integer> CLONE_MIN_DISTANCE_KM =
      Setting.ofInt(
          "clone-min-distance-km",
          50,
          0,
          20_000,
          "Distance in km between two branches below which a serial read at both is never flagged"
              + " as a probable clone, however short the time between.");

  static final List<Setting<?>> ALL =
      List.of(ZONE, NAMESPACE, RETENTION_YEARS, CLONE_MAX_SPEED_KMH, CLONE_MIN_DISTANCE_KM);

  private BanknoteSettings() {}
}
