package org.casebook.server.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;
import java.util.stream.Stream;
import org.casebook.core.CasebookSystem;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The architecture of every system on the class path ({@link ArchitectureRules}), and of the
 * platform: core knows no system, and the service (server and systems) knows no benchmark.
 */
class ArchitectureTest {
  private static final JavaClasses CLASSES =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TEST_FIXTURES)
          // A module's test-jar (core's, frontier's) holds test helpers, not the service.
          .withImportOption(
              location -> !location.matches(java.util.regex.Pattern.compile(".*-tests\\.jar.*")))
          .importPackages("org.casebook");

  /** Each system's name and root package (the server's test systems are not checked). */
  static List<String[]> systems() {
    List<String[]> out = new ArrayList<>();
    for (CasebookSystem s : ServiceLoader.load(CasebookSystem.class)) {
      String root = s.getClass().getPackageName();
      if (CLASSES.containPackage(root)) {
        out.add(new String[] {s.descriptor().name(), root});
      }
    }
    return out;
  }

  @TestFactory
  Stream<DynamicTest> everySystemKeepsItsDirection() {
    List<String[]> systems = systems();
    assertThat(systems).hasSizeGreaterThanOrEqualTo(7);
    List<String> roots = systems.stream().map(s -> s[1]).toList();
    List<DynamicTest> tests = new ArrayList<>();
    for (String[] s : systems) {
      ArchitectureRules rules = new ArchitectureRules(s[0], s[1]);
      List<String> others = roots.stream().filter(r -> !r.equals(s[1])).toList();
      for (ArchRule rule : rules.all(others)) {
        tests.add(DynamicTest.dynamicTest(rule.getDescription(), () -> rule.check(CLASSES)));
      }
    }
    return tests.stream();
  }

  @Test
  void coreKnowsNoSystemServerOrBenchmark() {
    List<String> forbidden = new ArrayList<>();
    systems().forEach(s -> forbidden.add(s[1] + ".."));
    forbidden.addAll(
        List.of("org.casebook.server..", "org.casebook.bench..", "org.casebook.browser.."));
    noClasses()
        .that()
        .resideInAPackage("org.casebook.core..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(forbidden.toArray(String[]::new))
        .check(CLASSES);
  }

  @Test
  void theServiceKnowsNoBenchmarkOrBrowser() {
    noClasses()
        .that()
        .resideInAPackage("org.casebook..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("org.casebook.bench..", "org.casebook.browser..")
        .check(CLASSES);
  }

  @Test
  void theServerNamesNoSystem() {
    List<String> roots = systems().stream().map(s -> s[1] + "..").toList();
    noClasses()
        .that()
        .resideInAPackage("org.casebook.server..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(roots.toArray(String[]::new))
        .check(CLASSES);
  }
}
