package org.casebook.core.chaos;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * How {@link RegionChaos} kills and starts HBase's daemons, which run outside this JVM: shell
 * commands given by the operator (HBase's ChaosMonkey does the same through its ClusterManager).
 * {@code {host}} and {@code {port}} in a command stand for the daemon acted on (the RegionServer
 * the seed picked, or the active master). An empty command means not given; a kill needs its start
 * command, so that nothing killed is left down.
 *
 * @param killRegionServer kills one RegionServer at once ({@code kill -9}), e.g. by its port
 * @param startRegionServer starts the killed RegionServer again, returning once it is started
 * @param killMaster kills the active HMaster at once
 * @param startMaster starts the HMaster again
 */
public record ProcessCommands(
    String killRegionServer, String startRegionServer, String killMaster, String startMaster) {
  /** No commands: the kill actions are recorded as skipped. */
  public static final ProcessCommands NONE = new ProcessCommands("", "", "", "");

  /** What a host or port taken into a shell command may hold. */
  private static final Pattern SAFE = Pattern.compile("[A-Za-z0-9._:-]+");

  public ProcessCommands {
    killRegionServer = Objects.requireNonNull(killRegionServer, "killRegionServer is null").strip();
    startRegionServer =
        Objects.requireNonNull(startRegionServer, "startRegionServer is null").strip();
    killMaster = Objects.requireNonNull(killMaster, "killMaster is null").strip();
    startMaster = Objects.requireNonNull(startMaster, "startMaster is null").strip();
    if (killRegionServer.isEmpty() != startRegionServer.isEmpty()) {
      throw new IllegalArgumentException(
          "a RegionServer kill command needs a start command, and the other way round");
    }
    if (killMaster.isEmpty() != startMaster.isEmpty()) {
      throw new IllegalArgumentException(
          "a master kill command needs a start command, and the other way round");
    }
  }

  /** Whether {@link ChaosAction#KILL_REGIONSERVER} can be carried out. */
  public boolean killsRegionServers() {
    return !killRegionServer.isEmpty();
  }

  /** Whether {@link ChaosAction#KILL_MASTER} can be carried out. */
  public boolean killsMaster() {
    return !killMaster.isEmpty();
  }

  /** {@code command} with {@code {host}} and {@code {port}} filled in. */
  static String fill(String command, String host, int port) {
    if (!SAFE.matcher(host).matches()) {
      throw new IllegalArgumentException("unexpected characters in host name " + host);
    }
    return command.replace("{host}", host).replace("{port}", Integer.toString(port));
  }
}
