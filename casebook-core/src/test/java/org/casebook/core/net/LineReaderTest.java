package org.casebook.core.net;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class LineReaderTest {
  private static List<String> read(InputStream in, int max) throws IOException {
    LineReader r = new LineReader(in, max);
    List<String> out = new ArrayList<>();
    LineReader.Line l;
    while ((l = r.next()) != null) {
      out.add(l.tooLong() ? "<too long>" : l.text() == null ? "<not utf-8>" : l.text());
    }
    return out;
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void splitsLinesDropsCarriageReturnsAndKeepsAnUnterminatedLast() throws IOException {
    assertThat(read(new ByteArrayInputStream(bytes("put a\r\n\nversion\n主机=甲\nlast")), 100))
        .containsExactly("put a", "", "version", "主机=甲", "last");
  }

  @Test
  void linesSplitAcrossReadsAreJoined() throws IOException {
    InputStream oneByteAtATime =
        new ByteArrayInputStream(bytes("first line\nsécond\n")) {
          @Override
          public synchronized int read(byte[] b, int off, int len) {
            return super.read(b, off, Math.min(len, 1));
          }
        };
    assertThat(read(oneByteAtATime, 100)).containsExactly("first line", "sécond");
  }

  @Test
  void tooLongAndInvalidLinesAreReportedAndTheStreamGoesOn() throws IOException {
    byte[] bad = {'a', (byte) 0xC3, '\n'};
    byte[] all = new byte[bad.length + 40];
    System.arraycopy(bad, 0, all, 0, bad.length);
    System.arraycopy(bytes("x".repeat(30) + "\nok\n"), 0, all, bad.length, 34);
    assertThat(read(new ByteArrayInputStream(all, 0, bad.length + 34), 20))
        .containsExactly("<not utf-8>", "<too long>", "ok");
  }
}
