package org.casebook.core.net;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ByteLinesTest {
  @Test
  void linesComeBackAsTheirBytes() throws IOException {
    byte[] in = "文档\r\n \t\n\nlast".getBytes(StandardCharsets.UTF_8);
    ByteLines lines = new ByteLines(new ByteArrayInputStream(in), 100);
    List<String> seen = new ArrayList<>();
    List<Boolean> blank = new ArrayList<>();
    while (lines.next()) {
      seen.add(new String(lines.copy(), StandardCharsets.UTF_8));
      blank.add(lines.blank());
      assertThat(lines.length()).isEqualTo(lines.copy().length);
    }
    assertThat(seen).containsExactly("文档", " \t", "", "last");
    assertThat(blank).containsExactly(false, true, true, false);
  }

  @Test
  void aTooLongLineIsSkippedEvenWhenItEndsTheStream() throws IOException {
    ByteLines lines =
        new ByteLines(
            new ByteArrayInputStream("ok\n0123456789".getBytes(StandardCharsets.UTF_8)), 5);
    assertThat(lines.next()).isTrue();
    assertThat(lines.tooLong()).isFalse();
    assertThat(lines.next()).isTrue();
    assertThat(lines.tooLong()).isTrue();
    assertThat(lines.length()).isZero();
    assertThat(lines.next()).isFalse();
  }
}
