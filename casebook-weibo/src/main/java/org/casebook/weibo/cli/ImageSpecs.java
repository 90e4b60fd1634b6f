package org.casebook.weibo.cli;

import java.util.ArrayList;
import java.util.List;
import org.casebook.core.InvalidInputException;
import org.casebook.weibo.PostImage;

/**
 * The {@code --image} option's text, {@code REF[|WIDTHxHEIGHT[|ALT]]}: a reference never holds a
 * {@code |} (not a URL character, not an id character), so the first bar ends it; the alt text,
 * last, may hold bars of its own. Publishing checks the values themselves.
 */
final class ImageSpecs {
  private ImageSpecs() {}

  static List<PostImage> parse(List<String> specs) {
    List<PostImage> images = new ArrayList<>(specs.size());
    for (int i = 0; i < specs.size(); i++) {
      images.add(parse(specs.get(i), "images[" + i + "]"));
    }
    return images;
  }

  private static PostImage parse(String spec, String field) {
    String[] parts = spec.split("\\|", 3);
    Integer width = null;
    Integer height = null;
    if (parts.length > 1 && !parts[1].isEmpty()) {
      String[] size = parts[1].split("x", -1);
      InvalidInputException.check(
          size.length == 2 && isNumber(size[0]) && isNumber(size[1]),
          field + ".width",
          field + ": size must be WIDTHxHEIGHT in pixels, got '" + parts[1] + "'");
      width = Integer.valueOf(size[0]);
      height = Integer.valueOf(size[1]);
    }
    String alt = parts.length > 2 && !parts[2].isEmpty() ? parts[2] : null;
    return new PostImage(parts[0], width, height, alt);
  }

  private static boolean isNumber(String s) {
    return !s.isEmpty() && s.length() <= 9 && s.chars().allMatch(c -> c >= '0' && c <= '9');
  }
}
