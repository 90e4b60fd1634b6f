package org.casebook.banknote.fsn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class FsnFileTest {
  private static FsnRecord record(int i, boolean image, boolean machine) {
    int[] serial = "XN15115812".chars().toArray();
    serial[9] = '0' + i % 10;
    byte[] img = null;
    if (image) {
      img = new byte[8 + 10 * 128];
      img[0] = 10;
      img[2] = 32;
      img[4] = 32;
      Arrays.fill(img, 8, img.length, (byte) (i + 1));
    }
    return new FsnRecord(
        ((2021 - 1980) << 9) | (2 << 5) | 24,
        (13 << 11) | (13 << 5) | 1,
        1,
        new int[] {0x5555, 0x5515, 0x8005},
        "CNY",
        3,
        100,
        10,
        serial,
        machine ? "BOC20/JLGF/JL303MHJ40079" : "",
        machine ? 0x215D : 0,
        img);
  }

  private static FsnFile file(FsnVariant v, int n) {
    List<FsnRecord> records = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      records.add(record(i, v.images(), v.version() == 1));
    }
    FsnHeader h =
        v.version() == 1
            ? FsnHeader.of(v)
            : new FsnHeader(v, "BOC", "BOC20/JLGF/JL303MHJ40079", "1", "0110-001");
    return new FsnFile(h, records);
  }

  @Test
  void everyVariantRoundTripsWithTheDocumentedSizes() throws Exception {
    for (FsnVariant v : FsnVariant.values()) {
      FsnFile f = file(v, 7);
      byte[] bytes = f.bytes();
      assertThat(bytes).hasSize(v.headerBytes() + 7 * v.recordBytes());
      FsnFile back = FsnFile.parse(bytes);
      assertThat(back.header()).isEqualTo(f.header());
      assertThat(back.records()).as(v.name()).isEqualTo(f.records());
    }
    assertThat(FsnVariant.FSN2014.recordBytes()).isEqualTo(1644);
    assertThat(FsnVariant.FSN2014_NO_IMAGES.recordBytes()).isEqualTo(100);
    assertThat(FsnVariant.FSN2018.headerBytes()).isEqualTo(350);
    assertThat(FsnVariant.FSN2018.recordBytes()).isEqualTo(1632);
  }

  @Test
  void aChunkIsAWellFormedFileOfARunOfTheRecords() throws Exception {
    for (FsnVariant v : FsnVariant.values()) {
      FsnFile f = file(v, 9);
      byte[] bytes = f.bytes();
      assertThat(FsnFile.layout(bytes)).isEqualTo(v);
      byte[] chunk = FsnFile.chunk(bytes, 3, 4);
      assertThat(chunk).hasSize(v.headerBytes() + 4 * v.recordBytes());
      FsnFile back = FsnFile.parse(chunk);
      assertThat(back.header()).as(v.name()).isEqualTo(f.header());
      assertThat(back.records()).as(v.name()).isEqualTo(f.records().subList(3, 7));
      assertThat(FsnFile.parse(FsnFile.chunk(bytes, 9, 0)).records()).isEmpty();
      assertThatThrownBy(() -> FsnFile.chunk(bytes, 7, 3))
          .isInstanceOf(IllegalArgumentException.class);
    }
  }

  @Test
  void theHeaderBytesAreTheDocumentedOnes() {
    byte[] b = file(FsnVariant.FSN2014, 1).bytes();
    assertThat(Arrays.copyOf(b, 20))
        .containsExactly(
            0x14, 0, 0x0A, 0, 0x07, 0, 0x1A, 0, 0, 0, 1, 0, 0x2E, 0, 0x53, 0, 0x4E, 0, 0x6F, 0);
    assertThat(Arrays.copyOfRange(b, 24, 32)).containsExactly(0, 0, 1, 0, 2, 0, 3, 0);
  }

  @Test
  void anEmptyFileWithAGoodHeaderHasNoRecords() throws Exception {
    assertThat(FsnFile.parse(file(FsnVariant.FSN2014, 0).bytes()).records()).isEmpty();
  }

  @Test
  void malformedFilesAreRefusedWholeWithTheirReason() {
    byte[] good = file(FsnVariant.FSN2014, 3).bytes();
    byte[] magic = good.clone();
    magic[0] = 21;
    assertThatThrownBy(() -> FsnFile.parse(magic))
        .isInstanceOf(FsnFormatException.class)
        .hasMessageContaining("wrong header: HeadStart is 21,10,7,26");
    byte[] version = good.clone();
    version[10] = 7;
    assertThatThrownBy(() -> FsnFile.parse(version))
        .hasMessageContaining("format version (HeadString[1]) is 7");
    assertThatThrownBy(() -> FsnFile.parse(Arrays.copyOf(good, 20)))
        .hasMessageContaining("shorter than the 32-byte FSN header");
    assertThatThrownBy(() -> FsnFile.parse(Arrays.copyOf(good, good.length - 37)))
        .hasMessageContaining("truncated record: record 2 has 1607 of its 1644 bytes");
    byte[] count = good.clone();
    ByteBuffer.wrap(count).order(ByteOrder.LITTLE_ENDIAN).putInt(20, 8);
    assertThatThrownBy(() -> FsnFile.parse(count))
        .hasMessageContaining("impossible count: the header says 8 records, the file holds 3");
    byte[] huge = good.clone();
    ByteBuffer.wrap(huge).order(ByteOrder.LITTLE_ENDIAN).putInt(20, -1);
    assertThatThrownBy(() -> FsnFile.parse(huge))
        .hasMessageContaining("the header says 4294967295 records");
    byte[] flag = good.clone();
    flag[12] = 0x2D; // says "no images" but records are 1,644 bytes
    assertThatThrownBy(() -> FsnFile.parse(flag))
        .hasMessageContaining("impossible count: the image flag (0x2d) says 100-byte records");
    byte[] end = good.clone();
    end[24] = 9;
    assertThatThrownBy(() -> FsnFile.parse(end)).hasMessageContaining("HeadEnd");
  }

  @Test
  void aFlagOtherThan2dMeansImagesWhenTheSizeAgrees() throws Exception {
    byte[] b = file(FsnVariant.FSN2014, 2).bytes();
    b[12] = 0x2F; // one writer's value
    assertThat(FsnFile.parse(b).variant()).isEqualTo(FsnVariant.FSN2014);
  }
}
