package org.casebook.tsdb.wire;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import org.casebook.core.AccessRule;
import org.casebook.core.CasebookException;
import org.casebook.core.InvalidInputException;
import org.casebook.core.net.LineProtocol;
import org.casebook.tsdb.IncomingPoint;
import org.casebook.tsdb.Tags;
import org.casebook.tsdb.TsdbService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * OpenTSDB's telnet-style protocol: {@code put <metric> <timestamp> <value> <tagk=tagv> …}, {@code
 * version}, {@code help}, {@code exit}; and {@code auth <token>}, needed before puts when the
 * server's writes need a token (the platform's one access rule; OpenTSDB's telnet has no auth). A
 * good {@code put} gets no reply; a bad line gets one error line in OpenTSDB's wording and the
 * connection stays open. Points of pipelined lines are written as one batch when the input buffer
 * runs dry.
 */
public final class TelnetProtocol implements LineProtocol {
  private static final Logger LOG = LoggerFactory.getLogger(TelnetProtocol.class);

  private static final int MAX_BATCH = 2048;

  private final TsdbService service;
  private final AccessRule access;

  /** The protocol on {@code service}; {@code access} says whether puts need {@code auth}. */
  public TelnetProtocol(TsdbService service, AccessRule access) {
    this.service = service;
    this.access = access;
  }

  @Override
  public Session open(InetSocketAddress remote) {
    return new Session() {
      private final List<IncomingPoint> batch = new ArrayList<>();
      private boolean mayWrite = !access.writesNeedToken();

      @Override
      public boolean line(String line, Replies out) throws IOException {
        String[] words = Tags.words(line);
        if (words.length == 0) {
          return true;
        }
        switch (words[0]) {
          case "put" -> {
            if (mayWrite) {
              put(words, out);
            } else {
              out.line("put: writes need the token here: send `auth <token>` first");
            }
          }
          case "auth" -> {
            mayWrite = words.length == 2 && access.allowsWrite(words[1]);
            out.line(mayWrite ? "auth: ok" : "auth: refused");
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
        if (!batch.isEmpty()) {
          try {
            service.write(batch, false);
          } catch (CasebookException e) {
            LOG.warn("telnet put of {} point(s) at close failed", batch.size(), e);
          }
          batch.clear();
        }
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
