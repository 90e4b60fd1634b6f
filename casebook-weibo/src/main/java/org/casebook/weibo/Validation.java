package org.casebook.weibo;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import org.casebook.core.Ids;
import org.casebook.core.InvalidInputException;

/**
 * Input rules: user ids of 1–64 characters in any script (the platform's id rule), posts of 1–2,000
 * characters, an optional title and up to nine images by reference.
 *
 * <p>The post limits are constants, not settings: they are part of the API's contract, so a post
 * one server accepts is accepted by every other (and by a restored backup's).
 */
final class Validation {
  static final int MAX_UID_CHARS = 64;
  static final int MAX_CONTENT_CHARS = 2000;

  /** One line of heading; longer text belongs in the content. */
  static final int MAX_TITLE_CHARS = 100;

  /** Weibo's own limit: its nine-image grid. */
  static final int MAX_IMAGES = 9;

  /** The longest URL that browsers, CDNs and the sitemap protocol all agree to handle. */
  static final int MAX_REF_CHARS = 2048;

  /** An opaque id names an upload, it does not describe it. */
  static final int MAX_IMAGE_ID_CHARS = 128;

  /** Mastodon's bound for an image description: room for a real one, not for an essay. */
  static final int MAX_ALT_CHARS = 1500;

  /** The largest dimension a JPEG can declare. */
  static final int MAX_IMAGE_SIDE = 65_535;

  /** Opaque ids: no colon (so never mistaken for a URL), no slash, no space. */
  private static final Pattern IMAGE_ID = Pattern.compile("[A-Za-z0-9._-]+");

  private Validation() {}

  static String uid(String value, String field) {
    return Ids.check(value, field, MAX_UID_CHARS);
  }

  static String content(String value) {
    InvalidInputException.check(
        value != null && !value.isBlank(), "content", "content must not be empty");
    String problem = Ids.textProblem(value, MAX_CONTENT_CHARS, true);
    InvalidInputException.check(problem == null, "content", "content " + problem);
    return value;
  }

  /** A title (null for none): one line, not blank, at most {@link #MAX_TITLE_CHARS}. */
  static String title(String value) {
    if (value == null) {
      return null;
    }
    InvalidInputException.check(
        !value.isBlank(), "title", "title must not be blank (leave it out for none)");
    String problem = Ids.textProblem(value, MAX_TITLE_CHARS, false);
    InvalidInputException.check(problem == null, "title", "title " + problem);
    return value;
  }

  /** The images (null for none), each checked; a problem names the image's index. */
  static List<PostImage> images(List<PostImage> value) {
    if (value == null) {
      return List.of();
    }
    InvalidInputException.check(
        value.size() <= MAX_IMAGES,
        "images",
        "images: at most " + MAX_IMAGES + " per post, got " + value.size());
    List<PostImage> out = new ArrayList<>(value.size());
    for (int i = 0; i < value.size(); i++) {
      out.add(image(value.get(i), "images[" + i + "]"));
    }
    return List.copyOf(out);
  }

  private static PostImage image(PostImage image, String field) {
    InvalidInputException.check(
        image != null, field, field + " must be an image ({\"ref\": …}), not null");
    ref(image.ref(), field + ".ref");
    InvalidInputException.check(
        (image.width() == null) == (image.height() == null),
        image.width() == null ? field + ".width" : field + ".height",
        field + ": give both width and height, or neither");
    side(image.width(), field + ".width");
    side(image.height(), field + ".height");
    if (image.alt() != null) {
      InvalidInputException.check(
          !image.alt().isBlank(),
          field + ".alt",
          field + ".alt must not be blank (leave it out for none)");
      String problem = Ids.textProblem(image.alt(), MAX_ALT_CHARS, true);
      InvalidInputException.check(problem == null, field + ".alt", field + ".alt " + problem);
    }
    return image;
  }

  private static void side(Integer value, String field) {
    InvalidInputException.check(
        value == null || (value >= 1 && value <= MAX_IMAGE_SIDE),
        field,
        field + " must be 1.." + MAX_IMAGE_SIDE + " pixels, got " + value);
  }

  /**
   * An image reference: an {@code https://} URL with a host and no user info (plain http would be
   * mixed content on a console served over https; credentials do not belong in a post), or an
   * opaque id of letters, digits, {@code .}, {@code _} and {@code -}.
   */
  static String ref(String value, String field) {
    InvalidInputException.check(
        value != null && !value.isBlank(), field, field + " must not be empty");
    String problem = Ids.textProblem(value, MAX_REF_CHARS, false);
    InvalidInputException.check(problem == null, field, field + " " + problem);
    if (value.indexOf(':') < 0) {
      InvalidInputException.check(
          value.length() <= MAX_IMAGE_ID_CHARS && IMAGE_ID.matcher(value).matches(),
          field,
          field
              + " must be an https:// URL or an id of at most "
              + MAX_IMAGE_ID_CHARS
              + " letters, digits, '.', '_' or '-'");
      return value;
    }
    URI uri;
    try {
      uri = new URI(value);
    } catch (URISyntaxException e) {
      throw new InvalidInputException(field, field + " is not a valid URL: " + e.getReason());
    }
    InvalidInputException.check(
        uri.getScheme() != null && uri.getScheme().toLowerCase(Locale.ROOT).equals("https"),
        field,
        field + " must be an https:// URL or an image id");
    InvalidInputException.check(
        uri.getHost() != null && uri.getRawUserInfo() == null,
        field,
        field + " must name a host and no user info (https://host/…)");
    return value;
  }
}
