package org.casebook.banknote.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.casebook.banknote.BanknoteSystem;
import org.casebook.banknote.FileContext;
import org.casebook.banknote.gen.BanknoteGenerator;
import org.casebook.core.AccessRule;
import org.casebook.core.HBaseRuntime;
import org.casebook.core.InvalidInputException;
import org.casebook.core.Platform;
import org.casebook.core.RunningSystem;
import org.casebook.core.SystemContext;
import org.casebook.core.http.HttpApiServer;
import org.casebook.core.schema.SchemaManager;
import org.casebook.core.testing.EmbeddedHBase;
import org.casebook.core.testing.TestCertificates;
import org.casebook.core.testing.TestIds;
import org.casebook.core.tls.ServerTls;
import org.casebook.core.tls.TlsFiles;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The agent delivering to an https collector: with {@code --ca-file} naming the collector's CA it
 * delivers; trusting another CA it delivers nothing, keeps the file and stops naming {@code
 * ca-file}, as for a wrong token (no retry makes a certificate trusted).
 */
@ExtendWith(EmbeddedHBase.class)
class SpoolAgentTlsIT {
  private static final ZoneId SHANGHAI = ZoneId.of("Asia/Shanghai");
  private Platform platform;
  private SystemContext context;
  private HttpApiServer server;
  private ServerTls tls;
  private Path scratch;
  private TestCertificates ca;

  @BeforeEach
  void setUp(HBaseRuntime runtime) throws Exception {
    BanknoteSystem system = new BanknoteSystem();
    new SchemaManager(runtime.connection()).ensureAll(system.descriptor().tables());
    platform = Platform.create(runtime, EmbeddedHBase.dataDir());
    context = platform.contextFor(system.descriptor());
    scratch = EmbeddedHBase.scratchDir(TestIds.unique("agent-tls"));
    ca =
        TestCertificates.authority(Files.createDirectories(scratch.resolve("ca")), "Agent Test CA");
    TestCertificates.Issued issued = ca.server();
    tls = ServerTls.start(TlsFiles.pem(issued.chainPem(), issued.keyPem()), Duration.ZERO);
    RunningSystem running = context.own(system.start(context));
    server =
        new HttpApiServer(
            "127.0.0.1",
            0,
            AccessRule.open(),
            4,
            platform.metrics(),
            HttpApiServer.Limits.defaults(),
            Optional.of(tls));
    running.routes().forEach(server::add);
    server.start();
  }

  @AfterEach
  void tearDown() {
    server.close();
    tls.close();
    platform.close();
  }

  private Path spoolOfOneDevice(String name, LocalDate day) throws Exception {
    BanknoteGenerator gen =
        new BanknoteGenerator(
            new BanknoteGenerator.Spec(1, 1, 120, 0.0, 0.0, false, 7, day, SHANGHAI));
    Path out = scratch.resolve(name + "-gen");
    List<BanknoteGenerator.GeneratedFile> files = new ArrayList<>();
    gen.write(out, files::add);
    Path spool = Files.createDirectories(scratch.resolve(name));
    for (BanknoteGenerator.GeneratedFile f : files) {
      Files.move(f.path(), spool.resolve(f.path().getFileName()));
    }
    return spool;
  }

  private SpoolAgent.Settings settings(Path spool) {
    return SpoolAgent.Settings.of(
            spool, URI.create("https://localhost:" + server.port()), FileContext.none())
        .withTimings(
            Duration.ofMillis(50), Duration.ZERO, Duration.ofMillis(50), Duration.ofMillis(200));
  }

  @Test
  void deliversOverHttpsTrustingTheCaFile() throws Exception {
    Path spool = spoolOfOneDevice("trusted", LocalDate.of(2033, 3, 1));
    SpoolAgent agent = new SpoolAgent(settings(spool), SpoolAgent.httpClient(ca.caPem()));
    List<SpoolAgent.FileResult> results = new ArrayList<>();
    assertThat(agent.drain(results::add)).isTrue();
    assertThat(results).isNotEmpty();
    assertThat(results).allSatisfy(r -> assertThat(r.delivered()).isEqualTo(r.records()));
    assertThat(results.stream().mapToLong(SpoolAgent.FileResult::delivered).sum()).isPositive();
    for (SpoolAgent.FileResult r : results) {
      assertThat(spool.resolve(r.file() + SpoolAgent.COMPLETED)).exists();
    }
  }

  @Test
  @Timeout(60) // an agent that retried instead would never return from drain
  void aCollectorSignedByAnotherCaGetsNothingAndStopsTheAgentNamingTheCaFile() throws Exception {
    Path spool = spoolOfOneDevice("untrusted", LocalDate.of(2033, 3, 2));
    TestCertificates other =
        TestCertificates.authority(Files.createDirectories(scratch.resolve("other")), "Other CA");
    SpoolAgent agent = new SpoolAgent(settings(spool), SpoolAgent.httpClient(other.caPem()));
    List<SpoolAgent.FileResult> results = new ArrayList<>();
    // No retry makes the certificate trusted: the agent stops at once, as for a wrong token.
    assertThatThrownBy(() -> agent.drain(results::add))
        .isInstanceOfSatisfying(
            InvalidInputException.class, e -> assertThat(e.field()).isEqualTo("ca-file"))
        .hasMessageContaining("does not trust");
    assertThat(results).isEmpty();
    try (var files = Files.list(spool)) {
      assertThat(files.map(p -> p.getFileName().toString()))
          .noneMatch(n -> n.endsWith(SpoolAgent.COMPLETED))
          .anyMatch(n -> !n.startsWith("."));
    }
  }
}
