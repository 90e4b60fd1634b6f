package org.casebook.core.testing;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A test CA and the server certificates it signs, made with the JDK's {@code keytool} (no other
 * library): each server's material as a PKCS#12 keystore with a password file, and as a PEM chain
 * with a PKCS#8 PEM key exported here from the keystore.
 */
public final class TestCertificates {
  private static final String PASSWORD = "test-password";

  private final Path dir;
  private final Path caStore;
  private final Path caPem;
  private final AtomicInteger issued = new AtomicInteger();

  private TestCertificates(Path dir) {
    this.dir = dir;
    this.caStore = dir.resolve("ca.p12");
    this.caPem = dir.resolve("ca.pem");
  }

  /** A new CA under {@code dir} (valid from a day ago for a year). */
  public static TestCertificates authority(Path dir, String name) {
    TestCertificates t = new TestCertificates(dir);
    keytool(
        "-genkeypair",
        "-alias",
        "ca",
        "-dname",
        "CN=" + name,
        "-keyalg",
        "EC",
        "-groupname",
        "secp256r1",
        "-ext",
        "bc:c",
        "-startdate",
        "-1d",
        "-validity",
        "365",
        "-keystore",
        t.caStore.toString(),
        "-storetype",
        "PKCS12",
        "-storepass",
        PASSWORD);
    keytool(
        "-exportcert",
        "-rfc",
        "-alias",
        "ca",
        "-keystore",
        t.caStore.toString(),
        "-storepass",
        PASSWORD,
        "-file",
        t.caPem.toString());
    return t;
  }

  /** The CA's certificate, PEM: what a client passes as {@code --ca-file}. */
  public Path caPem() {
    return caPem;
  }

  /** One server's material in both forms. */
  public record Issued(
      Path keystore, Path passwordFile, Path chainPem, Path keyPem, String serial) {}

  /** A server certificate for 127.0.0.1 and localhost, valid now. */
  public Issued server() {
    return issue("ip:127.0.0.1,dns:localhost", "-1d", 30, "EC");
  }

  /**
   * A server certificate naming {@code san} (keytool's form: {@code ip:…,dns:…}), valid from {@code
   * start} (keytool's form: {@code -3d}) for {@code days}, with an {@code EC} or {@code RSA} key.
   */
  public Issued issue(String san, String start, int days, String keyAlgorithm) {
    String name = "server-" + issued.incrementAndGet();
    Path store = dir.resolve(name + ".p12");
    Path csr = dir.resolve(name + ".csr");
    Path signed = dir.resolve(name + "-signed.pem");
    List<String> gen =
        new ArrayList<>(
            List.of(
                "-genkeypair",
                "-alias",
                "server",
                "-dname",
                "CN=localhost",
                "-keyalg",
                keyAlgorithm,
                "-keystore",
                store.toString(),
                "-storetype",
                "PKCS12",
                "-storepass",
                PASSWORD));
    gen.addAll(
        keyAlgorithm.equals("EC")
            ? List.of("-groupname", "secp256r1")
            : List.of("-keysize", "2048"));
    keytool(gen.toArray(String[]::new));
    keytool(
        "-certreq",
        "-alias",
        "server",
        "-keystore",
        store.toString(),
        "-storepass",
        PASSWORD,
        "-file",
        csr.toString());
    keytool(
        "-gencert",
        "-alias",
        "ca",
        "-keystore",
        caStore.toString(),
        "-storepass",
        PASSWORD,
        "-infile",
        csr.toString(),
        "-outfile",
        signed.toString(),
        "-rfc",
        "-startdate",
        start,
        "-validity",
        Integer.toString(days),
        "-ext",
        "san=" + san,
        "-ext",
        "eku=serverAuth");
    keytool(
        "-importcert",
        "-noprompt",
        "-alias",
        "ca",
        "-file",
        caPem.toString(),
        "-keystore",
        store.toString(),
        "-storepass",
        PASSWORD);
    keytool(
        "-importcert",
        "-noprompt",
        "-alias",
        "server",
        "-file",
        signed.toString(),
        "-keystore",
        store.toString(),
        "-storepass",
        PASSWORD);
    ownerOnly(store);
    Path passwordFile = write(dir.resolve(name + ".password"), PASSWORD + "\n");
    return exportPem(name, store, passwordFile);
  }

  /** The keystore's chain and key as PEM files, beside it. */
  private Issued exportPem(String name, Path store, Path passwordFile) {
    try (InputStream in = Files.newInputStream(store)) {
      KeyStore ks = KeyStore.getInstance("PKCS12");
      ks.load(in, PASSWORD.toCharArray());
      PrivateKey key = (PrivateKey) ks.getKey("server", PASSWORD.toCharArray());
      StringBuilder chain = new StringBuilder();
      for (Certificate c : ks.getCertificateChain("server")) {
        chain.append(pem("CERTIFICATE", c.getEncoded()));
      }
      X509Certificate leaf = (X509Certificate) ks.getCertificate("server");
      Path chainPem = write(dir.resolve(name + "-chain.pem"), chain.toString());
      Path keyPem = write(dir.resolve(name + "-key.pem"), pem("PRIVATE KEY", key.getEncoded()));
      return new Issued(
          store,
          passwordFile,
          chainPem,
          keyPem,
          leaf.getSerialNumber().toString(16).toUpperCase(Locale.ROOT));
    } catch (IOException | GeneralSecurityException e) {
      throw new IllegalStateException("cannot export " + store + " as PEM", e);
    }
  }

  /** PEM text of one DER block. */
  public static String pem(String label, byte[] der) {
    String body =
        Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der);
    return "-----BEGIN " + label + "-----\n" + body + "\n-----END " + label + "-----\n";
  }

  /** Writes {@code text} owner-only, as a key file should be. */
  public static Path write(Path file, String text) {
    try {
      Files.writeString(file, text, StandardCharsets.US_ASCII);
      return ownerOnly(file);
    } catch (IOException e) {
      throw new IllegalStateException("cannot write " + file, e);
    }
  }

  private static Path ownerOnly(Path file) {
    try {
      Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
      return file;
    } catch (IOException e) {
      throw new IllegalStateException("cannot restrict " + file, e);
    }
  }

  /** Replaces {@code target} by a copy of {@code source} in one rename, as a rotation would. */
  public static void replace(Path source, Path target) {
    try {
      Path tmp = target.resolveSibling(target.getFileName() + ".new");
      Files.copy(source, tmp, StandardCopyOption.REPLACE_EXISTING);
      Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new IllegalStateException("cannot replace " + target, e);
    }
  }

  private static void keytool(String... args) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
    command.addAll(List.of(args));
    try {
      Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
      p.getOutputStream().close();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
        throw new IllegalStateException("keytool " + args[0] + " failed: " + out);
      }
    } catch (IOException e) {
      throw new IllegalStateException("cannot run keytool", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted running keytool", e);
    }
  }
}
