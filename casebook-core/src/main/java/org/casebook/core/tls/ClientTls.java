package org.casebook.core.tls;

import java.net.http.HttpClient;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.TrustManagerFactory;

/**
 * How Casebook's own clients check a server: against the CAs of a PEM file ({@code --ca-file}) or,
 * without one, the JDK's trust store; always with hostname verification (the name or IP address in
 * the URL must be in the certificate).
 */
public final class ClientTls {
  private ClientTls() {}

  /** A context trusting the certificates in {@code caFile}, or the JDK's default when null. */
  public static SSLContext context(Path caFile) {
    try {
      if (caFile == null) {
        return SSLContext.getDefault();
      }
      List<X509Certificate> cas = TlsFiles.readCertificates(caFile);
      KeyStore trusted = KeyStore.getInstance("PKCS12");
      trusted.load(null, null);
      for (int i = 0; i < cas.size(); i++) {
        trusted.setCertificateEntry("ca-" + i, cas.get(i));
      }
      TrustManagerFactory tmf =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      tmf.init(trusted);
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(null, tmf.getTrustManagers(), null);
      return context;
    } catch (java.io.IOException | GeneralSecurityException e) {
      throw new IllegalStateException("cannot build a TLS client context: " + e.getMessage(), e);
    }
  }

  /**
   * Parameters that verify the server's name as HTTPS does and offer only {@link
   * ServerTls#PROTOCOLS}; for sockets that do not verify by themselves (an {@code SSLSocket}).
   */
  public static SSLParameters parameters(SSLContext context) {
    SSLParameters p = context.getDefaultSSLParameters();
    p.setEndpointIdentificationAlgorithm("HTTPS");
    p.setProtocols(ServerTls.PROTOCOLS.toArray(String[]::new));
    return p;
  }

  /**
   * A java.net.http builder trusting {@code caFile} (null: the JDK's trust store); the JDK's client
   * verifies the host name by itself.
   */
  public static HttpClient.Builder httpClient(Path caFile) {
    SSLContext context = context(caFile);
    return HttpClient.newBuilder().sslContext(context).sslParameters(parameters(context));
  }
}
