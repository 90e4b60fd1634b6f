package org.casebook.core;

import java.util.Map;
import java.util.Objects;

/** A running system's own view of its health: {@code up}, or {@code degraded} with details. */
public record SystemHealth(String status, Map<String, Object> details) {
  public SystemHealth {
    Objects.requireNonNull(status, "status is null");
    details = Map.copyOf(details);
  }

  public static SystemHealth up() {
    return new SystemHealth("up", Map.of());
  }

  public static SystemHealth up(Map<String, Object> details) {
    return new SystemHealth("up", details);
  }

  public static SystemHealth degraded(Map<String, Object> details) {
    return new SystemHealth("degraded", details);
  }

  public boolean isUp() {
    return status.equals("up");
  }
}
