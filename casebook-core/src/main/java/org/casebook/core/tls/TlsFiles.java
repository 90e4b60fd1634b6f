package org.casebook.core.tls;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.casebook.core.InvalidInputException;
import org.casebook.core.LocalFileException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where a server's certificate and private key live: a PEM certificate chain with a PKCS#8 PEM
 * private key, or a PKCS#12 keystore with its password in a file. {@link #load()} reads them each
 * time it is called, so a rotated file is picked up by the next load.
 */
public final class TlsFiles {
  private static final Logger LOG = LoggerFactory.getLogger(TlsFiles.class);

  private static final Pattern PEM_BLOCK =
      Pattern.compile("-----BEGIN ([A-Z0-9 ]+)-----([^-]*)-----END \\1-----");

  private static final Set<PosixFilePermission> OTHERS =
      EnumSet.of(
          PosixFilePermission.GROUP_READ,
          PosixFilePermission.GROUP_WRITE,
          PosixFilePermission.OTHERS_READ,
          PosixFilePermission.OTHERS_WRITE);

  private final Path certificate;
  private final Path privateKey;
  private final Path keystore;
  private final Path passwordFile;

  private TlsFiles(Path certificate, Path privateKey, Path keystore, Path passwordFile) {
    this.certificate = certificate;
    this.privateKey = privateKey;
    this.keystore = keystore;
    this.passwordFile = passwordFile;
  }

  /** A PEM certificate chain (the server's certificate first) and its PKCS#8 PEM private key. */
  public static TlsFiles pem(Path certificateChain, Path privateKey) {
    return new TlsFiles(
        Objects.requireNonNull(certificateChain, "certificateChain is null"),
        Objects.requireNonNull(privateKey, "privateKey is null"),
        null,
        null);
  }

  /** A PKCS#12 keystore holding exactly one private key, its password the first line of a file. */
  public static TlsFiles pkcs12(Path keystore, Path passwordFile) {
    return new TlsFiles(
        null,
        null,
        Objects.requireNonNull(keystore, "keystore is null"),
        Objects.requireNonNull(passwordFile, "passwordFile is null"));
  }

  /** The files read by {@link #load()}: a change to any of them is a rotation. */
  public List<Path> files() {
    return keystore == null ? List.of(certificate, privateKey) : List.of(keystore, passwordFile);
  }

  /** What the files are, for messages: never their contents. */
  public String describe() {
    return keystore == null
        ? "certificate " + certificate + ", key " + privateKey
        : "keystore " + keystore;
  }

  /**
   * Reads the files now. Secret files readable by others are warned about, not refused (an operator
   * may rely on group access on purpose).
   */
  public ServerKey load() {
    return keystore == null ? loadPem() : loadPkcs12();
  }

  private ServerKey loadPem() {
    warnIfShared(privateKey, "private key");
    List<X509Certificate> chain = readCertificates(certificate);
    String text = readText(privateKey);
    List<String[]> blocks = pemBlocks(text);
    String[] key =
        blocks.stream()
            .filter(b -> b[0].endsWith("PRIVATE KEY"))
            .findFirst()
            .orElseThrow(
                () ->
                    new InvalidInputException(
                        "tls-key", privateKey + " holds no PEM private key block"));
    if (!key[0].equals("PRIVATE KEY")) {
      throw new InvalidInputException(
          "tls-key",
          privateKey
              + " holds a '"
              + key[0]
              + "' block; give an unencrypted PKCS#8 key ('BEGIN PRIVATE KEY'), e.g. from"
              + " openssl pkcs8 -topk8 -nocrypt");
    }
    byte[] der;
    try {
      der = Base64.getMimeDecoder().decode(key[1]);
    } catch (IllegalArgumentException e) {
      throw new InvalidInputException("tls-key", privateKey + " is not valid PEM: bad base64");
    }
    return new ServerKey(pkcs8(der, chain.get(0).getPublicKey().getAlgorithm()), chain);
  }

  /** Decodes a PKCS#8 key of the certificate's algorithm (RSA, EC, Ed25519 …). */
  private PrivateKey pkcs8(byte[] der, String algorithm) {
    try {
      return KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(der));
    } catch (GeneralSecurityException e) {
      throw new InvalidInputException(
          "tls-key",
          privateKey
              + " is not a PKCS#8 "
              + algorithm
              + " private key matching "
              + certificate
              + ": "
              + e.getMessage());
    }
  }

  private ServerKey loadPkcs12() {
    warnIfShared(keystore, "keystore");
    warnIfShared(passwordFile, "keystore password file");
    String firstLine = readText(passwordFile).lines().findFirst().orElse("").strip();
    char[] password = firstLine.toCharArray();
    try (InputStream in = Files.newInputStream(keystore)) {
      KeyStore store = KeyStore.getInstance("PKCS12");
      store.load(in, password);
      List<String> keys = new ArrayList<>();
      for (String alias : Collections.list(store.aliases())) {
        if (store.isKeyEntry(alias)) {
          keys.add(alias);
        }
      }
      InvalidInputException.check(
          keys.size() == 1,
          "tls-keystore",
          keystore + " must hold exactly one private key; it holds " + keys.size() + " " + keys);
      String alias = keys.get(0);
      PrivateKey key = (PrivateKey) store.getKey(alias, password);
      Certificate[] certs = store.getCertificateChain(alias);
      InvalidInputException.check(
          certs != null && certs.length > 0,
          "tls-keystore",
          keystore + ": the key '" + alias + "' has no certificate chain");
      List<X509Certificate> chain = new ArrayList<>();
      for (Certificate c : certs) {
        chain.add((X509Certificate) c);
      }
      return new ServerKey(key, chain);
    } catch (IOException e) {
      if (e.getCause() instanceof java.security.UnrecoverableKeyException) {
        throw new InvalidInputException(
            "tls-keystore-password-file",
            "the password in " + passwordFile + " does not open " + keystore);
      }
      throw LocalFileException.of("read the TLS keystore", keystore, e);
    } catch (GeneralSecurityException e) {
      throw new InvalidInputException(
          "tls-keystore", keystore + " is not a usable PKCS#12 keystore: " + e.getMessage());
    } finally {
      java.util.Arrays.fill(password, '\0');
    }
  }

  /** Every certificate in a PEM file, in order; none is an error. */
  static List<X509Certificate> readCertificates(Path file) {
    try (InputStream in = Files.newInputStream(file)) {
      List<X509Certificate> out = new ArrayList<>();
      for (Certificate c : CertificateFactory.getInstance("X.509").generateCertificates(in)) {
        out.add((X509Certificate) c);
      }
      InvalidInputException.check(!out.isEmpty(), "certificate", file + " holds no certificate");
      return out;
    } catch (IOException e) {
      throw LocalFileException.of("read certificates from", file, e);
    } catch (GeneralSecurityException e) {
      throw new InvalidInputException(
          "certificate", file + " is not a PEM certificate file: " + e.getMessage());
    }
  }

  private static String readText(Path file) {
    try {
      return Files.readString(file, StandardCharsets.US_ASCII);
    } catch (IOException e) {
      throw LocalFileException.of("read", file, e);
    }
  }

  /** PEM blocks as {label, base64 body}. */
  private static List<String[]> pemBlocks(String text) {
    List<String[]> out = new ArrayList<>();
    Matcher m = PEM_BLOCK.matcher(text);
    while (m.find()) {
      out.add(new String[] {m.group(1), m.group(2)});
    }
    return out;
  }

  /** Warns when a secret file can be read or written by its group or others. */
  static void warnIfShared(Path file, String what) {
    PosixFileAttributeView view = Files.getFileAttributeView(file, PosixFileAttributeView.class);
    if (view == null) {
      return;
    }
    try {
      Set<PosixFilePermission> perms = view.readAttributes().permissions();
      if (!Collections.disjoint(perms, OTHERS)) {
        LOG.warn(
            "the TLS {} {} is open to other users ({}); chmod 600 it",
            what,
            file,
            PosixFilePermissions.toString(perms));
      }
    } catch (IOException e) {
      throw LocalFileException.of("read the permissions of", file, e);
    }
  }
}
