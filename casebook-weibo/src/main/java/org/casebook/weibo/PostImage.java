package org.casebook.weibo;

/**
 * One image of a post, by reference: an {@code https://} URL or an opaque id of an image the client
 * stored elsewhere (the feed never holds image bytes). Width, height and alt text are optional
 * (null when not given). Publishing checks every field and names the image's index in what it
 * refuses ({@code images[2].ref}), which a check here could not.
 */
public record PostImage(String ref, Integer width, Integer height, String alt) {
  /** An image known by its reference only. */
  public static PostImage of(String ref) {
    return new PostImage(ref, null, null, null);
  }
}
