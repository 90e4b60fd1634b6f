package org.casebook.core.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.casebook.core.InvalidInputException;
import org.casebook.core.testing.TestCertificates;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a server's TLS files must be, and the messages when they are not. */
class TlsFilesTest {
  @TempDir static Path dir;
  private static TestCertificates.Issued first;
  private static TestCertificates.Issued second;

  @BeforeAll
  static void issue() {
    TestCertificates ca = TestCertificates.authority(dir, "Files Test CA");
    first = ca.server();
    second = ca.server();
  }

  @Test
  void pemAndKeystoreLoadTheSameKindOfMaterial() {
    ServerKey pem = TlsFiles.pem(first.chainPem(), first.keyPem()).load();
    ServerKey p12 = TlsFiles.pkcs12(first.keystore(), first.passwordFile()).load();
    assertThat(pem.serial()).isEqualTo(first.serial()).isEqualTo(p12.serial());
    assertThat(pem.chain()).hasSize(2); // the server's certificate, then the CA's
    assertThat(pem.key().getEncoded()).isEqualTo(p12.key().getEncoded());
    assertThat(pem.toString())
        .contains(first.serial())
        .doesNotContain(java.util.Base64.getEncoder().encodeToString(pem.key().getEncoded()));
  }

  @Test
  void aKeyOfAnotherCertificateIsRefused() {
    assertThatThrownBy(() -> TlsFiles.pem(first.chainPem(), second.keyPem()).load())
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("does not belong to the certificate");
  }

  @Test
  void aPkcs1OrEncryptedKeyIsRefusedSayingHowToConvert() throws Exception {
    Path pkcs1 =
        TestCertificates.write(
            dir.resolve("rsa.pem"),
            "-----BEGIN RSA PRIVATE KEY-----\nAAAA\n-----END RSA PRIVATE KEY-----\n");
    assertThatThrownBy(() -> TlsFiles.pem(first.chainPem(), pkcs1).load())
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("RSA PRIVATE KEY")
        .hasMessageContaining("openssl pkcs8 -topk8 -nocrypt");
    Path none = TestCertificates.write(dir.resolve("none.pem"), "not a key\n");
    assertThatThrownBy(() -> TlsFiles.pem(first.chainPem(), none).load())
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("no PEM private key");
  }

  @Test
  void aWrongKeystorePasswordIsNamed() {
    Path wrong = TestCertificates.write(dir.resolve("wrong.password"), "not-it\n");
    assertThatThrownBy(() -> TlsFiles.pkcs12(first.keystore(), wrong).load())
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("does not open");
  }

  @Test
  void aKeyFileOpenToOthersStillLoads() throws Exception {
    Path open = dir.resolve("open-key.pem");
    Files.copy(first.keyPem(), open);
    Files.setPosixFilePermissions(
        open, java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
    assertThat(TlsFiles.pem(first.chainPem(), open).load().serial()).isEqualTo(first.serial());
  }
}
