package org.casebook.bench;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.casebook.core.cli.Progress;
import org.casebook.docs.gen.DocGenerator;

/**
 * What {@code bench docs} generates once and both sides load: the {@code _bulk} NDJSON file, its
 * document bytes, the ids the reads sample from ({@code type NUL id}) and the blog with 100
 * comments.
 */
record DocsBenchCorpus(
    Path file, long documents, long documentBytes, List<String> pageIds, String bigBlog) {
  /** Pages whose ids the reads and edits sample from, at most. */
  private static final int SAMPLED_PAGES = 50_000;

  long meanBytes() {
    return documentBytes / documents;
  }

  /** The type and id of a sampled page key. */
  static String[] key(String pageKey) {
    return pageKey.split("\u0000", 2);
  }

  /**
   * Generates about {@code documents} documents (whole pages with their comments) into {@code
   * work}.
   */
  static DocsBenchCorpus generate(Path work, int documents, int pageBytes, int commentBytes)
      throws IOException {
    Path file = work.resolve("docs.ndjson");
    DocGenerator gen =
        new DocGenerator(7, Instant.parse("2026-09-01T00:00:00Z"), 7, pageBytes, 500, commentBytes);
    List<String> pageIds = new ArrayList<>();
    long written = 0;
    long bytes = 0;
    String bigBlog;
    try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
        Progress p = Progress.start("generate", documents, "docs")) {
      List<DocGenerator.Generated> blog = gen.blogWithComments(100);
      bigBlog = blog.get(0).id();
      List<DocGenerator.Generated> batch = new ArrayList<>(blog);
      while (written < documents) {
        for (DocGenerator.Generated d : batch) {
          String lines = d.bulkLines();
          out.write(lines);
          // UTF-8 bytes of the document line (Chinese text is 3 bytes a character).
          bytes +=
              lines.substring(lines.indexOf('\n') + 1).getBytes(StandardCharsets.UTF_8).length - 1;
          written++;
          if (d.parentType() == null && pageIds.size() < SAMPLED_PAGES) {
            pageIds.add(d.type() + "\u0000" + d.id());
          }
        }
        p.advance(batch.size());
        batch = gen.next();
      }
    }
    return new DocsBenchCorpus(file, written, bytes, List.copyOf(pageIds), bigBlog);
  }
}
