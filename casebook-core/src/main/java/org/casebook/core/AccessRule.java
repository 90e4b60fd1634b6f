package org.casebook.core;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Objects;
import java.util.Optional;

/**
 * The one write-protection rule of every listener: reads are open; when a token is set, writes must
 * present it (HTTP {@code Authorization: Bearer <token>}, gRPC the same metadata, line protocols an
 * {@code auth <token>} line). Compared in constant time.
 */
public final class AccessRule {
  private final Optional<byte[]> token;

  private AccessRule(Optional<byte[]> token) {
    this.token = token;
  }

  public static AccessRule open() {
    return new AccessRule(Optional.empty());
  }

  public static AccessRule token(String token) {
    Objects.requireNonNull(token, "token is null");
    InvalidInputException.check(!token.isBlank(), "token", "the token must not be blank");
    return new AccessRule(Optional.of(token.getBytes(StandardCharsets.UTF_8)));
  }

  public boolean writesNeedToken() {
    return token.isPresent();
  }

  /** True if writes are open or {@code presented} is the token. */
  public boolean allowsWrite(String presented) {
    if (token.isEmpty()) {
      return true;
    }
    return presented != null
        && MessageDigest.isEqual(presented.getBytes(StandardCharsets.UTF_8), token.get());
  }

  /** True if writes are open or the header is {@code Bearer <token>} (scheme name in any case). */
  public boolean allowsWriteWithHeader(String authorization) {
    if (token.isEmpty()) {
      return true;
    }
    if (authorization == null
        || authorization.length() < 7
        || !authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
      return false;
    }
    return allowsWrite(authorization.substring(7).trim());
  }
}
