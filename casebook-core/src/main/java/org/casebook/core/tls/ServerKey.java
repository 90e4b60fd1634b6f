package org.casebook.core.tls;

import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import org.casebook.core.InvalidInputException;

/**
 * A server's private key with its certificate chain (its own certificate first), checked to belong
 * together: a key that cannot sign for the certificate would fail every handshake instead.
 */
public record ServerKey(PrivateKey key, List<X509Certificate> chain) {
  public ServerKey {
    Objects.requireNonNull(key, "key is null");
    chain = List.copyOf(Objects.requireNonNull(chain, "chain is null"));
    InvalidInputException.check(!chain.isEmpty(), "tls-cert", "the certificate chain is empty");
    InvalidInputException.check(
        signsFor(key, chain.get(0)),
        "tls-key",
        "the private key does not belong to the certificate " + describe(chain.get(0)));
  }

  /** The server's own certificate. */
  public X509Certificate certificate() {
    return chain.get(0);
  }

  /** The certificate's serial number in hex, as {@code openssl x509 -serial} prints it. */
  public String serial() {
    return certificate().getSerialNumber().toString(16).toUpperCase(Locale.ROOT);
  }

  /** Subject, serial and validity: what an operator checks in a log line. */
  static String describe(X509Certificate c) {
    return c.getSubjectX500Principal().getName()
        + " (serial "
        + c.getSerialNumber().toString(16).toUpperCase(Locale.ROOT)
        + ", valid "
        + c.getNotBefore().toInstant()
        + " to "
        + c.getNotAfter().toInstant()
        + ")";
  }

  /** Signs a random challenge with the key and verifies it with the certificate's public key. */
  private static boolean signsFor(PrivateKey key, X509Certificate certificate) {
    String algorithm =
        switch (key.getAlgorithm()) {
          case "RSA" -> "SHA256withRSA";
          case "EC" -> "SHA256withECDSA";
          case "DSA" -> "SHA256withDSA";
          default -> key.getAlgorithm(); // Ed25519, Ed448, EdDSA sign with their own name
        };
    try {
      byte[] challenge = new byte[32];
      new SecureRandom().nextBytes(challenge);
      Signature signer = Signature.getInstance(algorithm);
      signer.initSign(key);
      signer.update(challenge);
      byte[] signature = signer.sign();
      Signature verifier = Signature.getInstance(algorithm);
      verifier.initVerify(certificate.getPublicKey());
      verifier.update(challenge);
      return verifier.verify(signature);
    } catch (GeneralSecurityException e) {
      return false;
    }
  }

  @Override
  public String toString() {
    return "ServerKey[" + describe(certificate()) + "]"; // never the key
  }
}
