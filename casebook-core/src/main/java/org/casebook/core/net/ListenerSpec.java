package org.casebook.core.net;

import java.util.Objects;

/**
 * A socket a system serves besides HTTP, as described before it runs: {@code name} (e.g. {@code
 * telnet}), the protocol in words, and the default port. The platform binds it on the server's bind
 * address; {@code serve --<system>-port N} changes the port (0 = any free port).
 */
public record ListenerSpec(String name, String protocol, int defaultPort, String summary) {
  public ListenerSpec {
    Objects.requireNonNull(name, "name is null");
    Objects.requireNonNull(protocol, "protocol is null");
    Objects.requireNonNull(summary, "summary is null");
    if (defaultPort < 0 || defaultPort > 65535) {
      throw new IllegalArgumentException("port must be 0..65535");
    }
  }

  /**
   * {@code --<system>-port} for a system's only listener, {@code --<system>-<name>-port} otherwise.
   */
  public String portOption(String system, boolean onlyListener) {
    return onlyListener ? "--" + system + "-port" : "--" + system + "-" + name + "-port";
  }
}
