package org.casebook.archive;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One user of the archive: the profile (Weibo API field names, values as text) and the ids of the
 * accounts that follow it and that it follows.
 */
public record UserRecord(
    String uid, Map<String, String> profile, List<String> followers, List<String> friends) {
  public UserRecord {
    Objects.requireNonNull(uid, "uid is null");
    profile =
        Collections.unmodifiableMap(
            new LinkedHashMap<>(Objects.requireNonNull(profile, "profile is null")));
    followers = List.copyOf(followers);
    friends = List.copyOf(friends);
  }
}
