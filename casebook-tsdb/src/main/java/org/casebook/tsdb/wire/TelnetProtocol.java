package org.casebook.tsdb.wire;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import org.casebook.core.CasebookException;
import org.casebook.core.InvalidInputException;
import org.casebook.core.access.AccessGate;
import org.casebook.core.access.Action;
import org.casebook.core.access.Caller;
import org.casebook.core.net.LineProtocol;
import org.casebook.tsdb.IncomingPoint;
import org.casebook.tsdb.Tags;
import org.casebook.tsdb.TsdbService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * OpenTSDB's telnet-style protocol: {@code put <metric> <timestamp> <value> <tagk=tagv> …}, {@code
 * version}, {@code help}, {@code exit}; and {@code auth <token>}, which makes the connection's
 * caller the token's principal (OpenTSDB's telnet has no auth): puts need a write grant on the
 * system, as {@code /api/put} does. Each caller of a connection that wrote or was refused leaves
 * one audit entry (at its next {@code auth} or when the connection ends). A good {@code put} gets
 * no reply; a bad line gets one error line in OpenTSDB's wording and the connection stays open.
 * Points of pipelined lines are written as one batch when the input buffer runs dry.
 */
public final class TelnetProtocol implements LineProtocol {
  private static final Logger LOG = LoggerFactory.getLogger(TelnetProtocol.class);

  private static final int MAX_BATCH = 2048;

  private final TsdbService service;
  private final AccessGate access;

  /** The protocol on {@code service}; {@code access} says who may put. */
  public TelnetProtocol(TsdbService service, AccessGate access) {
    this.service = service;
    this.access = access;
  }

  @Override
  public Session open(InetSocketAddress remote) {
    return new Session() {
      private final List<IncomingPoint> batch = new ArrayList<>();
      private final String from = remote.getAddress().getHostAddress() + ":" + remote.getPort();
      private Caller caller = access.anonymous();
      private long written;
      private long refused;

      @Override
      public boolean line(String line, Replies out) throws IOException {
        String[] words = Tags.words(line);
        if (words.length == 0) {
          return true;
        }
        switch (words[0]) {
          case "put" -> {
            if (access.check(caller, Action.WRITE, "telnet")) {
              put(words, out);
            } else {
              refused++;
              out.line(
                  caller.authenticated()
                      ? "put: " + caller.name() + " may not write here"
                      : "put: writes need a token here: send `auth <token>` first");
            }
          }
          case "auth" -> {
            var known =
                words.length == 2 ? access.byToken(words[1]) : java.util.Optional.<Caller>empty();
            if (known.isEmpty()) {
              access.unknownCredential("telnet");
            }
            // What the connection did so far was its previous caller's doing.
            flushBatch(out);
            audit(null);
            caller = known.orElse(access.anonymous());
            out.line(known.isPresent() ? "auth: ok" : "auth: refused");
          }
          case "version" -> {
            flushBatch(out);
            for (String v : TsdbService.versionLines()) {
              out.line(v);
            }
          }
          case "help" -> out.line("available commands: auth exit help put version");
          case "exit" -> {
            flushBatch(out);
            return false;
          }
          default -> out.line("unknown command: " + words[0] + ".  Try `help'.");
        }
        return true;
      }

      private void put(String[] words, Replies out) throws IOException {
        try {
          batch.add(IncomingPoint.fromPutWords(words, service.limits()));
        } catch (InvalidInputException e) {
          out.line(errorLine(words, e));
        }
        if (batch.size() >= MAX_BATCH) {
          flushBatch(out); // a fast sender may never let the input run dry
        }
      }

      @Override
      public void drained(Replies out) throws IOException {
        flushBatch(out);
      }

      private void flushBatch(Replies out) throws IOException {
        if (batch.isEmpty()) {
          return;
        }
        try {
          service.write(batch, false);
          written += batch.size();
        } catch (org.casebook.core.InsufficientStorageException e) {
          // Refused before anything was written, as every write is while the disk is low.
          LOG.warn("telnet put of {} point(s) refused: {}", batch.size(), e.getMessage());
          out.line("put: refused: " + e.getMessage());
        } catch (CasebookException e) {
          LOG.warn("telnet put of {} point(s) failed", batch.size(), e);
          out.line("put: HBase error: " + e.getMessage());
        } finally {
          batch.clear();
        }
      }

      @Override
      public void close() {
        String failure = null;
        if (!batch.isEmpty()) {
          try {
            service.write(batch, false);
            written += batch.size();
          } catch (CasebookException e) {
            LOG.warn("telnet put of {} point(s) at close failed", batch.size(), e);
            failure = e.getMessage();
          }
          batch.clear();
        }
        audit(failure);
      }

      /** One entry for what the current caller did, if anything; the counts start again. */
      private void audit(String failure) {
        if (written > 0 || refused > 0 || failure != null) {
          access.audit(
              caller,
              Action.WRITE,
              "telnet put",
              written
                  + " point(s) written"
                  + (refused > 0 ? ", " + refused + " put(s) refused" : "")
                  + (failure != null ? "; failed at close: " + failure : ""),
              from);
        }
        written = 0;
        refused = 0;
      }
    };
  }

  /**
   * The reply to a refused {@code put}, in OpenTSDB 2.4's words: a value that is not a number is
   * {@code put: invalid value: Invalid character 'a' in abc}, anything else {@code put: illegal
   * argument: …}.
   */
  static String errorLine(String[] words, InvalidInputException e) {
    if ("value".equals(e.field()) && words.length > 3) {
      String v = words[3];
      for (int i = 0; i < v.length(); i++) {
        char c = v.charAt(i);
        boolean sign = (c == '+' || c == '-') && i == 0;
        if (!sign && !(c >= '0' && c <= '9') && c != '.' && c != 'e' && c != 'E') {
          return "put: invalid value: Invalid character '" + c + "' in " + v;
        }
      }
      return "put: invalid value: " + e.getMessage();
    }
    return "put: illegal argument: " + e.getMessage();
  }
}
