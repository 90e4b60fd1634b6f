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
  /** The profile fields an archive keeps (Weibo API names), in the order they are shown. */
  public static final List<String> PROFILE_FIELDS =
      List.of(
          "screen_name",
          "name",
          "province",
          "city",
          "location",
          "description",
          "url",
          "profile_image_url",
          "gender",
          "followers_count",
          "friends_count",
          "statuses_count",
          "favourites_count",
          "created_at",
          "verified");

  public UserRecord {
    Objects.requireNonNull(uid, "uid is null");
    profile =
        Collections.unmodifiableMap(
            new LinkedHashMap<>(Objects.requireNonNull(profile, "profile is null")));
    followers = List.copyOf(followers);
    friends = List.copyOf(friends);
  }
}
