package org.casebook.core.access;

import java.util.Map;
import java.util.Objects;

/**
 * Who sent a request, as the access rule knows them: a named principal (by token or certificate) or
 * the anonymous caller, with the level granted on each system ({@code *}: every system and the
 * platform's own routes).
 *
 * @param name the principal's name from the access file ({@code anonymous} for nobody)
 * @param authenticated whether a credential identified the caller
 * @param grants system name (or {@code *}) to the level held there
 */
public record Caller(String name, boolean authenticated, Map<String, Action> grants) {
  /** The scope of the platform's own routes (backups, the audit trail). */
  public static final String PLATFORM = "platform";

  public static final String ANONYMOUS = "anonymous";

  public Caller {
    Objects.requireNonNull(name, "name is null");
    grants = Map.copyOf(grants);
  }

  /** The level held on {@code system}: its own grant when there is one (it wins over {@code *}). */
  public Action level(String system) {
    Action own = grants.get(system);
    if (own != null) {
      return own;
    }
    return grants.getOrDefault("*", Action.NONE);
  }

  /** True when this caller may do {@code action} on {@code system}. */
  public boolean may(String system, Action action) {
    return action != Action.NONE && level(system).covers(action);
  }
}
