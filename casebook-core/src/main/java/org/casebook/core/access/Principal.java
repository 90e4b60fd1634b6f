package org.casebook.core.access;

import java.util.Map;
import java.util.Objects;

/**
 * One caller declared in an access file: a name, the SHA-256 of its token, and its grants (its
 * roles' merged with its own).
 */
public record Principal(String name, byte[] tokenSha256, Map<String, Action> grants) {
  public Principal {
    Objects.requireNonNull(name, "name is null");
    Objects.requireNonNull(tokenSha256, "tokenSha256 is null");
    if (tokenSha256.length != 32) {
      throw new IllegalArgumentException("a SHA-256 has 32 bytes");
    }
    tokenSha256 = tokenSha256.clone();
    grants = Map.copyOf(grants);
  }

  @Override
  public byte[] tokenSha256() {
    return tokenSha256.clone();
  }

  /** This principal as the caller of a request. */
  public Caller caller() {
    return new Caller(name, true, grants);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Principal p
        && p.name.equals(name)
        && java.util.Arrays.equals(p.tokenSha256, tokenSha256)
        && p.grants.equals(grants);
  }

  @Override
  public int hashCode() {
    return Objects.hash(name, java.util.Arrays.hashCode(tokenSha256), grants);
  }

  @Override
  public String toString() {
    return "Principal[" + name + " " + grants + "]";
  }
}
