package org.casebook.core;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.casebook.core.access.Action;
import org.casebook.core.access.Caller;
import org.casebook.core.access.Principal;

/**
 * Who may do what on every listener. Three modes: {@code open} (no credentials: anyone may do
 * anything, for loopback), {@code token} (one token that may do everything; anonymous callers read)
 * and {@code file} (principals with tokens and grants per system, and what anonymous callers get,
 * from an access file: {@link org.casebook.core.access.AccessFile}). Tokens are kept as SHA-256
 * digests and compared in constant time against every principal's.
 */
public final class AccessRule {
  /** How the rule was made. */
  public enum Mode {
    OPEN,
    TOKEN,
    FILE
  }

  private final Mode mode;
  private final List<Principal> principals;
  private final Caller anonymous;

  private AccessRule(Mode mode, List<Principal> principals, Map<String, Action> anonymous) {
    this.mode = mode;
    this.principals = List.copyOf(principals);
    this.anonymous = new Caller(Caller.ANONYMOUS, false, anonymous);
  }

  /** No credentials: every caller may do everything (loopback only, by default). */
  public static AccessRule open() {
    return new AccessRule(Mode.OPEN, List.of(), Map.of("*", Action.ADMIN));
  }

  /** One token that may do everything, named {@code token}; anonymous callers read. */
  public static AccessRule token(String token) {
    Objects.requireNonNull(token, "token is null");
    InvalidInputException.check(!token.isBlank(), "token", "the token must not be blank");
    return new AccessRule(
        Mode.TOKEN,
        List.of(new Principal("token", sha256(token), Map.of("*", Action.ADMIN))),
        Map.of("*", Action.READ));
  }

  /** Declared principals and anonymous grants (an access file's content). */
  public static AccessRule of(List<Principal> principals, Map<String, Action> anonymous) {
    Set<String> names = new TreeSet<>();
    for (Principal p : principals) {
      if (!names.add(p.name())) {
        throw new InvalidInputException("principals", "two principals are named " + p.name());
      }
    }
    for (int i = 0; i < principals.size(); i++) {
      for (int j = i + 1; j < principals.size(); j++) {
        if (MessageDigest.isEqual(
            principals.get(i).tokenSha256(), principals.get(j).tokenSha256())) {
          throw new InvalidInputException(
              "principals",
              principals.get(i).name()
                  + " and "
                  + principals.get(j).name()
                  + " have the same token");
        }
      }
    }
    InvalidInputException.check(
        anonymous.values().stream().noneMatch(a -> a == Action.ADMIN),
        "anonymous",
        "anonymous callers cannot be given admin");
    return new AccessRule(Mode.FILE, principals, anonymous);
  }

  /**
   * This rule with {@code systems} closed to anonymous callers (their data is private beyond
   * loopback): with one token only its holder reaches them; open, nobody does until a token or an
   * access file is given. An access file's rule is returned as it is: it says itself what anonymous
   * callers get.
   */
  public AccessRule closingAnonymousReads(Collection<String> systems) {
    if (mode == Mode.FILE || systems.isEmpty()) {
      return this;
    }
    Map<String, Action> grants = new HashMap<>(anonymous.grants());
    systems.forEach(s -> grants.put(s, Action.NONE));
    return new AccessRule(mode, principals, grants);
  }

  public Mode mode() {
    return mode;
  }

  /** What a caller without credentials gets. */
  public Caller anonymous() {
    return anonymous;
  }

  /** The systems named in grants, for checking against those served ({@code *} excluded). */
  public Set<String> namedSystems() {
    Set<String> out = new TreeSet<>(anonymous.grants().keySet());
    principals.forEach(p -> out.addAll(p.grants().keySet()));
    out.remove("*");
    return out;
  }

  /** The principals the rule declares (the token mode's one included). */
  public List<Principal> principals() {
    return principals;
  }

  /**
   * The principal whose token {@code presented} is; every principal's digest is compared, so the
   * time taken does not tell which matched. In open mode any token is the anonymous caller.
   */
  public Optional<Caller> byToken(String presented) {
    if (mode == Mode.OPEN) {
      return Optional.of(anonymous);
    }
    if (presented == null || presented.isEmpty()) {
      return Optional.empty();
    }
    byte[] digest = sha256(presented);
    Principal found = null;
    for (Principal p : principals) {
      if (MessageDigest.isEqual(digest, p.tokenSha256()) && found == null) {
        found = p;
      }
    }
    return found == null ? Optional.empty() : Optional.of(found.caller());
  }

  /**
   * The caller an HTTP {@code Authorization} header names: none is the anonymous caller, {@code
   * Bearer <token>} (scheme in any case) its principal; empty when a credential is given and is
   * wrong (a 401 even where anonymous callers would pass: a mistyped token should be told).
   */
  public Optional<Caller> byHeader(String authorization) {
    if (authorization == null || authorization.isBlank() || mode == Mode.OPEN) {
      return Optional.of(anonymous);
    }
    if (authorization.length() < 7 || !authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
      return Optional.empty();
    }
    return byToken(authorization.substring(7).trim());
  }

  /** The SHA-256 of {@code token}'s UTF-8 bytes, as access files keep tokens. */
  public static byte[] sha256(String token) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
  }

  @Override
  public String toString() {
    return switch (mode) {
      case OPEN -> "open (no credentials)";
      case TOKEN -> "one token";
      case FILE -> "access file (" + principals.size() + " principals)";
    };
  }
}
