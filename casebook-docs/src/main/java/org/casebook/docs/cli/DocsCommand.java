package org.casebook.docs.cli;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.casebook.core.InvalidInputException;
import org.casebook.core.Json;
import org.casebook.core.LocalFileException;
import org.casebook.core.SystemContext;
import org.casebook.core.cli.PageOptions;
import org.casebook.core.cli.Progress;
import org.casebook.docs.BulkSummary;
import org.casebook.docs.CommentOrder;
import org.casebook.docs.DocsService;
import org.casebook.docs.Document;
import org.casebook.docs.DocumentsPage;
import org.casebook.docs.gen.DocGenerator;
import org.casebook.docs.wire.BulkNdjson;
import org.casebook.docs.wire.DocumentJson;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code casebook docs …}: the document store from the command line; reads print JSON. */
@Command(
    name = "docs",
    mixinStandardHelpOptions = true,
    description = "Document store (seed 002): typed documents, optimistic edits, comments.")
public final class DocsCommand {
  private static final int COMMENTS_PAGE = 50;
  private static final int HISTORY_PAGE = 20;
  private static final int ERRORS_SHOWN = 20;
  private final Supplier<SystemContext> context;

  public DocsCommand(Supplier<SystemContext> context) {
    this.context = context;
  }

  private DocsService service() {
    return new DocsService(context.get());
  }

  @Command(name = "put", mixinStandardHelpOptions = true, description = "Store a whole document.")
  int put(
      @Parameters(paramLabel = "TYPE", description = "Document type (bbs, blog, news, ...).")
          String type,
      @Parameters(paramLabel = "ID", description = "Document id (a page's URL, or any id).")
          String id,
      @Parameters(paramLabel = "JSON", description = "The document's fields as a JSON object.")
          String json,
      @Option(
              names = "--if-match",
              paramLabel = "VERSION",
              description = "Only replace this version (the 'version' of a read).")
          Long ifMatch) {
    Document d =
        service()
            .put(
                type,
                id,
                DocumentJson.read(json.getBytes(StandardCharsets.UTF_8)),
                version(ifMatch))
            .document();
    System.out.println(Json.writePretty(d));
    return 0;
  }

  @Command(name = "get", mixinStandardHelpOptions = true, description = "Print a document.")
  int get(
      @Parameters(paramLabel = "TYPE", description = "Document type.") String type,
      @Parameters(paramLabel = "ID", description = "Document id.") String id) {
    System.out.println(Json.writePretty(service().get(type, id)));
    return 0;
  }

  @Command(
      name = "delete",
      mixinStandardHelpOptions = true,
      description = "Delete a document, its index entry and its comments.")
  int delete(
      @Parameters(paramLabel = "TYPE", description = "Document type.") String type,
      @Parameters(paramLabel = "ID", description = "Document id.") String id,
      @Option(
              names = "--if-match",
              paramLabel = "VERSION",
              description = "Only if the document is still at this version (exit 4 otherwise).")
          Long ifMatch) {
    service().delete(type, id, version(ifMatch));
    System.out.println("deleted " + type + " '" + id + "'");
    return 0;
  }

  @Command(
      name = "purge",
      mixinStandardHelpOptions = true,
      description =
          "Apply the retention setting now: delete every document older than its type's rule"
              + " (serve does this hourly).")
  int purge() {
    DocsService s = service();
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("retention", s.retention());
    out.put("deleted", s.purgeExpired());
    System.out.println(Json.writePretty(out));
    return 0;
  }

  @Command(
      name = "edit",
      mixinStandardHelpOptions = true,
      description =
          "Read a document, change fields and write it back over the version read: if someone"
              + " changed it meanwhile, nothing is written (exit 4). A person's edit: the fields"
              + " it changes are marked corrected, and re-crawls keep them.")
  int edit(
      @Parameters(paramLabel = "TYPE", description = "Document type.") String type,
      @Parameters(paramLabel = "ID", description = "Document id.") String id,
      @Parameters(
              paramLabel = "FIELD=VALUE",
              arity = "1..*",
              description =
                  "A change: VALUE is JSON (42, [\"a\"], null to remove) or else taken as text.")
          List<String> changes,
      @Option(
              names = "--editor",
              paramLabel = "NAME",
              description = "Who makes the edit, for the corrections and the history.")
          String editor) {
    DocsService s = service();
    Document read = s.get(type, id);
    Map<String, Object> patch = new LinkedHashMap<>();
    for (String change : changes) {
      int eq = change.indexOf('=');
      InvalidInputException.check(eq > 0, "FIELD=VALUE", "expected FIELD=VALUE, got " + change);
      patch.put(change.substring(0, eq), DocumentJson.valueOrText(change.substring(eq + 1)));
    }
    Document written = s.patch(type, id, patch, OptionalLong.of(read.version()), editor);
    System.out.println(Json.writePretty(written));
    return 0;
  }

  @Command(
      name = "history",
      mixinStandardHelpOptions = true,
      description =
          "A document's changes, newest first (person edits, and crawls once a person edited it),"
              + " and the fields corrected now.")
  int history(
      @Parameters(paramLabel = "TYPE", description = "Document type.") String type,
      @Parameters(paramLabel = "ID", description = "Document id.") String id,
      @Mixin PageOptions pageOptions) {
    System.out.println(
        Json.writePretty(service().history(type, id, pageOptions.request(HISTORY_PAGE))));
    return 0;
  }

  @Command(
      name = "drop-correction",
      mixinStandardHelpOptions = true,
      description =
          "Drop a person's correction of a field: it keeps its value until the next crawl"
              + " replaces it.")
  int dropCorrection(
      @Parameters(paramLabel = "TYPE", description = "Document type.") String type,
      @Parameters(paramLabel = "ID", description = "Document id.") String id,
      @Parameters(paramLabel = "FIELD", description = "The corrected field.") String field,
      @Option(
              names = "--if-match",
              paramLabel = "VERSION",
              description = "Only if the document is still at this version (exit 4 otherwise).")
          Long ifMatch,
      @Option(names = "--editor", paramLabel = "NAME", description = "Who drops it.")
          String editor) {
    System.out.println(
        Json.writePretty(service().dropCorrection(type, id, field, version(ifMatch), editor)));
    return 0;
  }

  @Command(
      name = "comments",
      mixinStandardHelpOptions = true,
      description = "A document's comments, newest first unless --order oldest.")
  int comments(
      @Parameters(paramLabel = "TYPE", description = "The parent's type (blog, bbs).") String type,
      @Parameters(paramLabel = "ID", description = "The parent's id.") String id,
      @Option(
              names = "--order",
              paramLabel = "ORDER",
              defaultValue = "NEWEST",
              description = "NEWEST or OLDEST (default: ${DEFAULT-VALUE}).")
          CommentOrder order,
      @Mixin PageOptions pageOptions) {
    System.out.println(
        Json.writePretty(
            DocumentsPage.of(
                service().comments(type, id, null, order, pageOptions.request(COMMENTS_PAGE)))));
    return 0;
  }

  @Command(
      name = "bulk",
      mixinStandardHelpOptions = true,
      description = "Load an NDJSON file in Elasticsearch _bulk shape; prints totals and errors.")
  int bulk(
      @Parameters(
              paramLabel = "FILE",
              description = "UTF-8 NDJSON: an action line, then (except delete) a document line.")
          Path file) {
    long size;
    try {
      size = Files.size(file);
    } catch (IOException e) {
      throw LocalFileException.of("read", file, e);
    }
    DocsService s = service();
    AtomicInteger shown = new AtomicInteger();
    BulkSummary summary;
    try (CountingInput lines = new CountingInput(Files.newInputStream(file));
        Progress progress = Progress.start("bulk " + file.getFileName(), size / 1024, "KiB")) {
      summary =
          s.bulk(
              BulkNdjson.actions(lines),
              item -> {
                progress.advance(lines.takeKib());
                if (!item.ok() && shown.incrementAndGet() <= ERRORS_SHOWN) {
                  System.err.println(Json.write(item));
                }
              });
    } catch (UncheckedIOException e) {
      throw LocalFileException.of("read", file, e.getCause());
    } catch (IOException e) {
      throw LocalFileException.of("read", file, e);
    }
    System.out.println(Json.writePretty(summary));
    return summary.errors() ? 1 : 0;
  }

  @Command(
      name = "generate",
      mixinStandardHelpOptions = true,
      description = "Write realistic crawled pages with comment threads as a _bulk NDJSON file.")
  int generate(
      @Parameters(paramLabel = "FILE", description = "The NDJSON file to write.") Path file,
      @Option(
              names = "--pages",
              paramLabel = "N",
              defaultValue = "1000",
              description = "Pages (BBS posts, blogs, news) to write (default: ${DEFAULT-VALUE}).")
          int pages,
      @Option(
              names = "--page-bytes",
              paramLabel = "BYTES",
              defaultValue = "2000",
              description = "Approximate content size of a page (default: ${DEFAULT-VALUE}).")
          int pageBytes,
      @Option(
              names = "--max-comments",
              paramLabel = "N",
              defaultValue = "500",
              description = "Most comments on one page (default: ${DEFAULT-VALUE}).")
          int maxComments,
      @Option(
              names = "--days",
              paramLabel = "D",
              defaultValue = "7",
              description =
                  "Days the pages' created times spread over (default: ${DEFAULT-VALUE}).")
          int days,
      @Option(
              names = "--seed",
              paramLabel = "SEED",
              defaultValue = "2",
              description = "Random seed; the same seed writes the same file.")
          long seed) {
    DocGenerator gen =
        new DocGenerator(seed, Instant.parse("2026-09-01T00:00:00Z"), days, pageBytes, maxComments);
    long documents = 0;
    try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
        Progress progress = Progress.start("generate", pages, "pages")) {
      for (int i = 0; i < pages; i++) {
        for (DocGenerator.Generated g : gen.next()) {
          out.write(g.bulkLines());
          documents++;
        }
        progress.advance(1);
      }
    } catch (IOException e) {
      throw LocalFileException.of("write", file, e);
    }
    System.out.println("wrote " + documents + " documents of " + pages + " pages to " + file);
    return 0;
  }

  @Command(
      name = "types",
      mixinStandardHelpOptions = true,
      description = "Print the declared types, or declare one from a JSON file.")
  int types(
      @Option(
              names = "--put",
              paramLabel = "FILE",
              description =
                  "A type as JSON: {\"name\", \"fields\":[{name,kind,family}], \"parents\"}.")
          Path definition) {
    DocsService s = service();
    if (definition != null) {
      try {
        byte[] json = Files.readAllBytes(definition);
        System.out.println(
            Json.writePretty(s.putType(Json.readBody(json, org.casebook.docs.DocType.class))));
      } catch (IOException e) {
        throw LocalFileException.of("read", definition, e);
      }
      return 0;
    }
    System.out.println(Json.writePretty(Map.of("types", s.types())));
    return 0;
  }

  @Command(
      name = "repair-index",
      mixinStandardHelpOptions = true,
      description = "Make the source-day index of TYPE match its documents exactly.")
  int repairIndex(@Parameters(paramLabel = "TYPE", description = "Document type.") String type) {
    System.out.println(Json.writePretty(service().repairIndex(type)));
    return 0;
  }

  private static OptionalLong version(Long v) {
    return v == null ? OptionalLong.empty() : OptionalLong.of(v);
  }

  /** A file's bytes, remembering how many were read (for the progress bar, from another thread). */
  private static final class CountingInput extends java.io.FilterInputStream {
    private final java.util.concurrent.atomic.AtomicLong bytes =
        new java.util.concurrent.atomic.AtomicLong();

    CountingInput(java.io.InputStream in) {
      super(in);
    }

    @Override
    public int read() throws IOException {
      int b = super.read();
      bytes.addAndGet(b < 0 ? 0 : 1);
      return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      int n = super.read(b, off, len);
      bytes.addAndGet(Math.max(n, 0));
      return n;
    }

    /** Whole KiB read since the last call (one caller). */
    long takeKib() {
      long kib = bytes.get() / 1024;
      bytes.addAndGet(-kib * 1024);
      return kib;
    }
  }
}
