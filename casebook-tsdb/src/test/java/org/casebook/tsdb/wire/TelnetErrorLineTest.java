package org.casebook.tsdb.wire;

import static org.assertj.core.api.Assertions.assertThat;

import org.casebook.core.InvalidInputException;
import org.casebook.tsdb.IncomingPoint;
import org.junit.jupiter.api.Test;

/** The telnet replies to refused {@code put} lines (moved here from {@code IncomingPointTest}). */
class TelnetErrorLineTest {
  private static final long NOW = 1_760_000_000_000L;
  private static final IncomingPoint.Limits LIMITS = new IncomingPoint.Limits(8, NOW, 86_400_000L);

  @Test
  void telnetErrorLinesUseOpenTsdbsWords() {
    assertThat(errorLine("put m 1759999000 abc host=a"))
        .isEqualTo("put: invalid value: Invalid character 'a' in abc");
    assertThat(errorLine("put m 1759999000 NaN host=a"))
        .isEqualTo("put: invalid value: Invalid character 'N' in NaN");
    assertThat(errorLine("put m 1759999000 1"))
        .isEqualTo("put: illegal argument: not enough arguments (need least 4, got 3)");
    assertThat(errorLine("put m 1759999000 1 host=a host=b"))
        .isEqualTo("put: illegal argument: duplicate tag: host=b, tags={host=a}");
  }

  private static String errorLine(String line) {
    String[] words = line.split("\\s+");
    try {
      IncomingPoint.fromPutWords(words, LIMITS);
    } catch (InvalidInputException e) {
      return TelnetProtocol.errorLine(words, e);
    }
    throw new AssertionError("accepted: " + line);
  }
}
