package org.casebook.tsdb;

import java.util.Locale;

/** The three kinds of names that get ids, with OpenTSDB's names for them in its API. */
enum UidKind {
  METRIC("metrics", "metric"),
  TAGK("tagk", "tagk"),
  TAGV("tagv", "tagv");

  private final String apiName;
  private final String singular;

  UidKind(String apiName, String singular) {
    this.apiName = apiName;
    this.singular = singular;
  }

  /** {@code metrics}, {@code tagk}, {@code tagv}: the {@code type} of /api/suggest and /api/uid. */
  String apiName() {
    return apiName;
  }

  String singular() {
    return singular;
  }

  byte code() {
    return (byte) ordinal();
  }

  static UidKind fromApiName(String s) {
    String v = s.toLowerCase(Locale.ROOT);
    for (UidKind k : values()) {
      if (k.apiName.equals(v) || k.singular.equals(v)) {
        return k;
      }
    }
    return null;
  }
}
