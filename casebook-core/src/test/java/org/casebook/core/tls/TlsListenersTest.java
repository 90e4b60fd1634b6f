package org.casebook.core.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLSocket;
import org.casebook.core.AccessRule;
import org.casebook.core.http.HttpApiServer;
import org.casebook.core.net.LineProtocol;
import org.casebook.core.net.LineServer;
import org.casebook.core.net.Listener;
import org.casebook.core.net.ListenerSpec;
import org.casebook.core.testing.TestCertificates;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * HTTP and line listeners over TLS, checked by Casebook's own client set-up ({@link ClientTls}), by
 * a raw {@link SSLSocket}, and by {@code openssl} and Python when the machine has them.
 */
class TlsListenersTest {
  private static final ListenerSpec ECHO = new ListenerSpec("echo", "echo lines", 0, "echo");

  @TempDir static Path dir;
  private static TestCertificates ca;
  private static TestCertificates.Issued server;

  @BeforeAll
  static void authority() {
    ca = TestCertificates.authority(dir, "Casebook Test CA");
    server = ca.server();
  }

  private static HttpApiServer http(ServerTls tls) {
    HttpApiServer s =
        new HttpApiServer(
            "127.0.0.1",
            0,
            AccessRule.open(),
            2,
            new SimpleMeterRegistry(),
            HttpApiServer.Limits.defaults(),
            Optional.of(tls));
    s.get("/hello", req -> org.casebook.core.http.HttpResponse.text(200, "text/plain", "hello"));
    s.start();
    return s;
  }

  private static HttpResponse<String> get(HttpClient client, String url) throws Exception {
    return client.send(
        HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static HttpClient client(Path caFile) {
    return ClientTls.httpClient(caFile).connectTimeout(Duration.ofSeconds(5)).build();
  }

  @Test
  void httpsWithTheCaAnswersAndPlainHttpGetsNoAnswer() throws Exception {
    try (ServerTls tls =
            ServerTls.start(TlsFiles.pem(server.chainPem(), server.keyPem()), Duration.ZERO);
        HttpApiServer http = http(tls)) {
      HttpResponse<String> ok =
          get(client(ca.caPem()), "https://localhost:" + http.port() + "/hello");
      assertThat(ok.statusCode()).isEqualTo(200);
      assertThat(ok.body()).isEqualTo("hello");
      assertThat(ok.sslSession().orElseThrow().getProtocol()).isIn("TLSv1.3", "TLSv1.2");

      // The same address by IP: the certificate names 127.0.0.1 too.
      assertThat(
              get(client(ca.caPem()), "https://127.0.0.1:" + http.port() + "/hello").statusCode())
          .isEqualTo(200);

      assertThatThrownBy(
              () -> get(HttpClient.newHttpClient(), "http://127.0.0.1:" + http.port() + "/hello"))
          .isInstanceOf(IOException.class);
      assertThat(rawPlainRequest(http.port()))
          .doesNotContain("HTTP/1.1 200")
          .doesNotContain("hello");

      // Without the CA, the JDK's trust store does not know the test CA.
      assertThatThrownBy(() -> get(client(null), "https://localhost:" + http.port() + "/hello"))
          .isInstanceOf(SSLHandshakeException.class);
    }
  }

  /** What a plain-text HTTP request to the port gets back (the TLS side closes on it). */
  private static String rawPlainRequest(int port) throws IOException {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress("127.0.0.1", port), 5000);
      s.setSoTimeout(5000);
      s.getOutputStream()
          .write(
              "GET /hello HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
                  .getBytes(StandardCharsets.US_ASCII));
      return new String(s.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
    } catch (java.net.SocketException reset) {
      return "";
    }
  }

  @Test
  void aKeystoreServesTooAndAnRsaKeyWorks() throws Exception {
    TestCertificates.Issued rsa = ca.issue("ip:127.0.0.1,dns:localhost", "-1d", 30, "RSA");
    try (ServerTls tls =
            ServerTls.start(TlsFiles.pkcs12(rsa.keystore(), rsa.passwordFile()), Duration.ZERO);
        HttpApiServer http = http(tls)) {
      HttpResponse<String> ok =
          get(client(ca.caPem()), "https://localhost:" + http.port() + "/hello");
      assertThat(ok.statusCode()).isEqualTo(200);
      assertThat(serial(ok.sslSession().orElseThrow().getPeerCertificates()[0]))
          .isEqualTo(rsa.serial());
    }
  }

  @Test
  void anExpiredCertificateAndOneForAnotherHostAreRefusedByTheClient() throws Exception {
    TestCertificates.Issued expired = ca.issue("ip:127.0.0.1,dns:localhost", "-10d", 2, "EC");
    TestCertificates.Issued elsewhere = ca.issue("dns:elsewhere.example", "-1d", 30, "EC");
    try (ServerTls tls =
            ServerTls.start(TlsFiles.pem(expired.chainPem(), expired.keyPem()), Duration.ZERO);
        HttpApiServer http = http(tls)) {
      assertThatThrownBy(
              () -> get(client(ca.caPem()), "https://localhost:" + http.port() + "/hello"))
          .isInstanceOf(SSLHandshakeException.class)
          .hasStackTraceContaining("CertificateExpiredException");
    }
    try (ServerTls tls =
            ServerTls.start(TlsFiles.pem(elsewhere.chainPem(), elsewhere.keyPem()), Duration.ZERO);
        HttpApiServer http = http(tls)) {
      assertThatThrownBy(
              () -> get(client(ca.caPem()), "https://localhost:" + http.port() + "/hello"))
          .isInstanceOf(SSLHandshakeException.class)
          .hasStackTraceContaining("localhost");
      // A raw socket with Casebook's parameters verifies the name as well.
      SSLContext context = ClientTls.context(ca.caPem());
      try (Listener lines = echo(tls)) {
        int port = lines.address().getPort();
        assertThatThrownBy(() -> lineRoundTrip(context, "localhost", port, "x"))
            .isInstanceOf(SSLHandshakeException.class);
      }
    }
  }

  private static Listener echo(ServerTls tls) throws IOException {
    LineProtocol protocol =
        remote ->
            (line, out) -> {
              out.line("echo " + line);
              return true;
            };
    return LineServer.factory(protocol, LineServer.Limits.defaults())
        .open(ECHO, new InetSocketAddress("127.0.0.1", 0), Optional.of(tls));
  }

  /** Sends one line over TLS with hostname verification; returns the reply line. */
  private static String lineRoundTrip(SSLContext context, String host, int port, String line)
      throws IOException {
    try (SSLSocket s = (SSLSocket) context.getSocketFactory().createSocket()) {
      s.connect(new InetSocketAddress(host, port), 5000);
      s.setSoTimeout(5000);
      // The name checked is the one connected to; SNI and verification use it.
      s.setSSLParameters(ClientTls.parameters(context));
      s.startHandshake();
      OutputStream out = s.getOutputStream();
      out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
      out.flush();
      return new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8))
          .readLine();
    }
  }

  @Test
  void theLineProtocolSpeaksTlsAndRefusesPlainText() throws Exception {
    try (ServerTls tls =
            ServerTls.start(TlsFiles.pem(server.chainPem(), server.keyPem()), Duration.ZERO);
        Listener l = echo(tls)) {
      SSLContext context = ClientTls.context(ca.caPem());
      assertThat(lineRoundTrip(context, "127.0.0.1", l.address().getPort(), "put m 1 2 a=b"))
          .isEqualTo("echo put m 1 2 a=b");
      try (Socket plain = new Socket("127.0.0.1", l.address().getPort())) {
        plain.setSoTimeout(5000);
        plain.getOutputStream().write("put m 1 2 a=b\n".getBytes(StandardCharsets.UTF_8));
        InputStream in = plain.getInputStream();
        byte[] answer = readQuietly(in);
        assertThat(new String(answer, StandardCharsets.ISO_8859_1)).doesNotContain("echo");
      }
    }
  }

  private static byte[] readQuietly(InputStream in) {
    try {
      return in.readAllBytes();
    } catch (IOException reset) {
      return new byte[0];
    }
  }

  @Test
  void rotatedFilesReachNewConnectionsAndABadFileKeepsTheOldCertificate() throws Exception {
    TestCertificates.Issued second = ca.server();
    Path cert = dir.resolve("rotating-chain.pem");
    Path key = dir.resolve("rotating-key.pem");
    TestCertificates.replace(server.chainPem(), cert);
    TestCertificates.replace(server.keyPem(), key);
    try (ServerTls tls = ServerTls.start(TlsFiles.pem(cert, key), Duration.ofMillis(100));
        HttpApiServer http = http(tls);
        Listener lines = echo(tls)) {
      HttpClient client = client(ca.caPem());
      String url = "https://localhost:" + http.port() + "/hello";
      assertThat(httpSerial(client, url)).isEqualTo(server.serial());

      // Half a rotation (a new certificate with the old key) does not load: the old one stays.
      TestCertificates.replace(second.chainPem(), cert);
      Thread.sleep(500);
      assertThat(tls.current().serial()).isEqualTo(server.serial());
      assertThat(httpSerial(client(ca.caPem()), url)).isEqualTo(server.serial());

      TestCertificates.replace(second.keyPem(), key);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (!tls.current().serial().equals(second.serial()) && System.nanoTime() < deadline) {
        Thread.sleep(50);
      }
      assertThat(httpSerial(client(ca.caPem()), url)).isEqualTo(second.serial());
      assertThat(lineSerial(lines.address().getPort())).isEqualTo(second.serial());
    }
  }

  /** The serial of the certificate a new connection gets (a new client: no resumed session). */
  private static String httpSerial(HttpClient client, String url) throws Exception {
    HttpResponse<String> r = get(client, url);
    return serial(r.sslSession().orElseThrow().getPeerCertificates()[0]);
  }

  private static String lineSerial(int port) throws IOException {
    SSLContext context = ClientTls.context(ca.caPem());
    try (SSLSocket s = (SSLSocket) context.getSocketFactory().createSocket("localhost", port)) {
      s.setSSLParameters(ClientTls.parameters(context));
      s.startHandshake();
      return serial(s.getSession().getPeerCertificates()[0]);
    }
  }

  private static String serial(java.security.cert.Certificate c) {
    return ((X509Certificate) c).getSerialNumber().toString(16).toUpperCase(Locale.ROOT);
  }

  @Test
  void opensslAndPythonClientsVerifyTheServer() throws Exception {
    boolean openssl = onPath("openssl");
    boolean python = onPath("python3");
    Assumptions.assumeTrue(
        openssl || python, "neither openssl nor python3 on PATH: skipped their client checks");
    try (ServerTls tls =
            ServerTls.start(TlsFiles.pem(server.chainPem(), server.keyPem()), Duration.ZERO);
        HttpApiServer http = http(tls)) {
      int port = http.port();
      if (openssl) {
        String out =
            run(
                "GET /hello HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n",
                "openssl",
                "s_client",
                "-connect",
                "127.0.0.1:" + port,
                "-servername",
                "localhost",
                "-CAfile",
                ca.caPem().toString(),
                "-verify_hostname",
                "localhost",
                "-verify_return_error",
                "-ign_eof");
        assertThat(out).contains("Verify return code: 0 (ok)").contains("HTTP/1.1 200");
      } else {
        System.err.println("openssl not on PATH: its client check skipped");
      }
      if (python) {
        String script =
            "import socket, ssl, sys\n"
                + "ctx = ssl.create_default_context(cafile=sys.argv[1])\n"
                + "s = ctx.wrap_socket(socket.create_connection(('127.0.0.1', int(sys.argv[2]))),"
                + " server_hostname='localhost')\n"
                + "s.sendall(b'GET /hello HTTP/1.1\\r\\nHost: localhost\\r\\nConnection: close\\r\\n\\r\\n')\n"
                + "data = b''\n"
                + "while True:\n"
                + "    chunk = s.recv(4096)\n"
                + "    if not chunk: break\n"
                + "    data += chunk\n"
                + "print(s.version())\n"
                + "print(data.decode('latin-1'))\n";
        String out =
            run("", "python3", "-c", script, ca.caPem().toString(), Integer.toString(port));
        assertThat(out).containsPattern("TLSv1\\.[23]").contains("HTTP/1.1 200").contains("hello");
      } else {
        System.err.println("python3 not on PATH: its client check skipped");
      }
    }
  }

  private static boolean onPath(String program) {
    for (String d : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
      if (!d.isEmpty() && java.nio.file.Files.isExecutable(Path.of(d, program))) {
        return true;
      }
    }
    return false;
  }

  private static String run(String input, String... command) throws Exception {
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    try (OutputStream in = p.getOutputStream()) {
      in.write(input.getBytes(StandardCharsets.US_ASCII));
    }
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(out).isZero();
    return out;
  }
}
