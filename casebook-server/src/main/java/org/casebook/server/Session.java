package org.casebook.server;

import java.net.InetSocketAddress;
import java.util.List;
import org.casebook.core.CasebookSystem;
import org.casebook.core.HBaseRuntime;
import org.casebook.core.SystemContext;

/**
 * The HBase and systems of one command line, for commands a distribution adds on top of the
 * service's own (the benchmarks' {@code bench}): HBase starts (or attaches) on first use with every
 * table ensured, and stops when the command ends. Systems are started the way {@code serve} starts
 * them, each listener on a free port.
 */
public interface Session {
  /** The systems on the class path, in name order. */
  List<CasebookSystem> systems();

  /** The system named {@code name}; an unknown name is invalid input naming the known ones. */
  CasebookSystem system(String name);

  /**
   * The global options given on this command line that say where HBase is or how systems are set
   * ({@code --data}, {@code --zk}, {@code --conf}, {@code --hbase}, {@code --settings}, {@code
   * --set}), for a command that runs on its own HBase and must refuse them.
   */
  List<String> runtimeOptionsGiven();

  /** HBase, started or attached on the first call (for work as long-running as a server). */
  HBaseRuntime runtime();

  /** A context for work that is not a system's (a benchmark, a tool). */
  SystemContext context(String name);

  /**
   * The context {@code system} runs on in this session (the one {@link #serve} starts it on, with
   * its settings), for work through its Java API beside the served system.
   */
  default SystemContext context(CasebookSystem system) {
    return context(system, java.util.Map.of());
  }

  /**
   * As {@link #context(CasebookSystem)}, made with {@code settings} ({@code <system>.<name>} →
   * value) set as by {@code --set} and its tables under them ensured; a context made already with
   * other settings is refused.
   */
  SystemContext context(CasebookSystem system, java.util.Map<String, String> settings);

  /**
   * Starts {@code systems} as {@code serve} does — each on its context, its routes checked and
   * served over HTTP with {@code /api/health}, its listeners opened — with HTTP and every listener
   * on a free port. At most one server runs per session.
   */
  default Served serve(List<CasebookSystem> systems, int httpThreads) {
    return serve(systems, httpThreads, java.util.Map.of());
  }

  /**
   * As {@link #serve(List, int)}, with {@code settings} ({@code <system>.<name>} → value) set as by
   * {@code --set} for these systems (a benchmark's own namespace, say); a key none of them declares
   * is refused.
   */
  Served serve(
      List<CasebookSystem> systems, int httpThreads, java.util.Map<String, String> settings);

  /** Systems served in this process. {@link #close()} stops HTTP, then the systems. */
  interface Served extends AutoCloseable {
    /** The HTTP port. */
    int port();

    /** Where {@code system}'s listener {@code listener} (its spec's name) listens. */
    InetSocketAddress listener(String system, String listener);

    @Override
    void close();
  }
}
