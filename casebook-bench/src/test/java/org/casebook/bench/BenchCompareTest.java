package org.casebook.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import org.casebook.core.InvalidInputException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BenchCompareTest {
  @TempDir Path dir;

  @Test
  void numbersAtTheSamePlaceAreComparedAndRowsMatchByTheirName() throws Exception {
    Path a =
        Files.writeString(
            dir.resolve("a.json"),
            "{\"rows\":[{\"step\":\"load\",\"seconds\":20},{\"step\":\"scan\",\"p50\":1.0,"
                + "\"p99\":5.0}],\"machine\":{\"cores\":2},\"note\":\"x\"}");
    // B dropped the load row, added another and reordered: scan still meets scan.
    Path b =
        Files.writeString(
            dir.resolve("b.json"),
            "{\"rows\":[{\"step\":\"gets\",\"p50\":3},{\"step\":\"scan\",\"p50\":0.5,"
                + "\"p99\":6.0}],\"machine\":{\"cores\":2}}");
    List<BenchCompare.Line> lines = BenchCompare.compare(a, b, Pattern.compile(""));
    assertThat(lines)
        .extracting(BenchCompare.Line::path)
        .containsExactly("/rows[step=scan]/p50", "/rows[step=scan]/p99", "/machine/cores");
    assertThat(lines.get(0).ratio()).isEqualTo(0.5);
    assertThat(lines.get(1).ratio()).isEqualTo(1.2);
    assertThat(BenchCompare.compare(a, b, Pattern.compile("p99")))
        .extracting(BenchCompare.Line::path)
        .containsExactly("/rows[step=scan]/p99");
    assertThat(BenchCompare.table(a, b, lines)).contains("/rows[step=scan]/p50").contains("0.50");
  }

  @Test
  void aRepeatedNameIsToldApartByItsOccurrence() throws Exception {
    Path a =
        Files.writeString(
            dir.resolve("a.json"),
            "{\"runs\":[{\"case\":1,\"users\":100},{\"case\":1,\"users\":200}]}");
    Path b =
        Files.writeString(
            dir.resolve("b.json"),
            "{\"runs\":[{\"case\":1,\"users\":100},{\"case\":1,\"users\":400}]}");
    assertThat(BenchCompare.compare(a, b, Pattern.compile("")))
        .extracting(BenchCompare.Line::path, BenchCompare.Line::b)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("/runs[case=1]/case", 1.0),
            org.assertj.core.groups.Tuple.tuple("/runs[case=1]/users", 100.0),
            org.assertj.core.groups.Tuple.tuple("/runs[case=1#2]/case", 1.0),
            org.assertj.core.groups.Tuple.tuple("/runs[case=1#2]/users", 400.0));
  }

  @Test
  void aFileThatIsNotJsonIsNamed() throws Exception {
    Path a = Files.writeString(dir.resolve("a.json"), "{\"x\":1}");
    Path bad = Files.writeString(dir.resolve("bad.json"), "{not json");
    assertThatThrownBy(() -> BenchCompare.compare(a, bad, Pattern.compile("")))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("bad.json");
  }
}
