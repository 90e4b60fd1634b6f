package org.casebook.server.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.lang.ArchRule;
import java.util.List;
import java.util.Objects;

/**
 * The direction inside a system module, as rules over its compiled classes: wire at the edge, HBase
 * at the bottom, and nothing of another system, the server or the benchmarks.
 *
 * <ul>
 *   <li>{@code org.apache.hadoop.hbase.client} only in stores, schemas, keys and codecs (classes
 *       named {@code …Store}, {@code …Schema}, {@code …Keys}, {@code …Codec}, with what they nest)
 *       and in {@code batch};
 *   <li>Hadoop's and HBase's MapReduce only in {@code batch};
 *   <li>wire types — protobuf, gRPC, URLFrontier's messages, Jackson's trees and streaming parser,
 *       core's HTTP routes and line-protocol server — only in {@code wire} (and in {@code gen},
 *       whose generators write what clients send), in the {@code …System} factory that binds the
 *       wire to the service, and in a store's {@code …Codec} that keeps a cell in a wire format
 *       with that format's own library (a crawler's {@code URLInfo} as protobuf, say);
 *   <li>no class of another system, of the server, of the benchmarks or of the browser tooling.
 * </ul>
 */
final class ArchitectureRules {
  /** Packages whose classes are wire types. */
  static final List<String> WIRE_PACKAGES =
      List.of(
          "com.google.protobuf..",
          "io.grpc..",
          "crawlercommons.urlfrontier..",
          // The frontier's jar carries protobuf 3 relocated here (see its pom).
          "org.casebook.frontier.internal..",
          "com.fasterxml.jackson.databind.node..",
          "org.casebook.core.http..");

  /** Single classes that are wire types. */
  static final List<String> WIRE_CLASSES =
      List.of(
          "com.fasterxml.jackson.core.JsonParser",
          "com.fasterxml.jackson.core.JsonGenerator",
          "com.fasterxml.jackson.core.JsonToken",
          "com.fasterxml.jackson.databind.JsonNode",
          "org.casebook.core.net.LineProtocol",
          "org.casebook.core.net.LineServer",
          "org.casebook.core.net.ByteLines",
          "org.casebook.core.net.LineReader");

  static final List<String> MAP_REDUCE_PACKAGES =
      List.of(
          "org.apache.hadoop.mapreduce..",
          "org.apache.hadoop.mapred..",
          "org.apache.hadoop.hbase.mapreduce..");

  private final String system;
  private final String root;

  /**
   * @param system the system's name ({@code tsdb})
   * @param root its root package ({@code org.casebook.tsdb})
   */
  ArchitectureRules(String system, String root) {
    this.system = Objects.requireNonNull(system, "system is null");
    this.root = Objects.requireNonNull(root, "root is null");
  }

  String system() {
    return system;
  }

  /** The system's own classes, without what its jar relocates into it. */
  private DescribedPredicate<JavaClass> own() {
    return DescribedPredicate.describe(
        "classes of " + system,
        c ->
            (c.getPackageName().equals(root) || c.getPackageName().startsWith(root + "."))
                && !c.getPackageName().startsWith(root + ".internal."));
  }

  private DescribedPredicate<JavaClass> inPackage(String part) {
    String p = root + "." + part;
    return DescribedPredicate.describe(
        "in " + p, c -> c.getPackageName().equals(p) || c.getPackageName().startsWith(p + "."));
  }

  /** The outermost class's simple name ends with one of {@code suffixes}. */
  private static DescribedPredicate<JavaClass> namedLike(String... suffixes) {
    return DescribedPredicate.describe(
        "named …" + String.join("/…", suffixes),
        c -> {
          JavaClass top = c;
          while (top.getEnclosingClass().isPresent()) {
            top = top.getEnclosingClass().get();
          }
          String name = top.getSimpleName();
          for (String s : suffixes) {
            if (name.endsWith(s)) {
              return true;
            }
          }
          return false;
        });
  }

  private static DescribedPredicate<JavaClass> wireTypes() {
    return DescribedPredicate.describe(
        "wire types (protobuf, gRPC, URLFrontier, Jackson trees and streaming, core HTTP and line"
            + " protocols)",
        c -> {
          for (String p : WIRE_PACKAGES) {
            String prefix = p.substring(0, p.length() - 2);
            if (c.getPackageName().equals(prefix) || c.getPackageName().startsWith(prefix + ".")) {
              return true;
            }
          }
          JavaClass top = c;
          while (top.getEnclosingClass().isPresent()) {
            top = top.getEnclosingClass().get();
          }
          return WIRE_CLASSES.contains(top.getName());
        });
  }

  /** HBase's client API only in stores, schemas, keys, codecs and batch. */
  ArchRule hbaseClientAtTheBottom() {
    return noClasses()
        .that(own())
        .and(DescribedPredicate.not(namedLike("Store", "Schema", "Keys", "Codec")))
        .and(DescribedPredicate.not(inPackage("batch")))
        .should()
        .dependOnClassesThat()
        .resideInAPackage("org.apache.hadoop.hbase.client..")
        .as(
            system
                + ": org.apache.hadoop.hbase.client only in stores, schemas, keys, codecs, batch");
  }

  /** MapReduce only in batch. */
  ArchRule mapReduceInBatch() {
    return noClasses()
        .that(own())
        .and(DescribedPredicate.not(inPackage("batch")))
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(MAP_REDUCE_PACKAGES.toArray(String[]::new))
        .as(system + ": MapReduce only in batch");
  }

  /** Wire types only at the edge. */
  ArchRule wireAtTheEdge() {
    return noClasses()
        .that(own())
        .and(DescribedPredicate.not(inPackage("wire")))
        .and(DescribedPredicate.not(inPackage("gen")))
        .and(DescribedPredicate.not(namedLike("System", "Codec")))
        .should()
        .dependOnClassesThat(wireTypes())
        .as(system + ": wire types only in wire (and gen, the system's factory, cell codecs)");
  }

  /** Nothing of another system, the server, the benchmarks or the browser tooling. */
  ArchRule onlyCore(List<String> otherSystemRoots) {
    String[] forbidden =
        java.util.stream.Stream.concat(
                otherSystemRoots.stream().map(r -> r + ".."),
                java.util.stream.Stream.of(
                    "org.casebook.server..", "org.casebook.bench..", "org.casebook.browser.."))
            .toArray(String[]::new);
    return noClasses()
        .that(own())
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(forbidden)
        .as(system + ": on core only (no other system, server, benchmark or browser)");
  }

  /** Every rule of the system. */
  List<ArchRule> all(List<String> otherSystemRoots) {
    return List.of(
        hbaseClientAtTheBottom(), mapReduceInBatch(), wireAtTheEdge(), onlyCore(otherSystemRoots));
  }
}
