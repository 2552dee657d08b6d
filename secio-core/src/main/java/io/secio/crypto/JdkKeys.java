package io.secio.crypto;

import java.security.AlgorithmParameters;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPairGenerator;
import java.security.spec.ECGenParameterSpec;
import java.security.spec.ECParameterSpec;

/**
 * The JDK's own providers, asked for by name, that decode, encode and generate RSA and ECDSA identity
 * keys: SunRsaSign and SunEC, whatever the backend and whatever providers a user registered first.
 * A public key's encoding is hashed into its peer id, so it must come out the same on every node;
 * signing and verifying, which may differ in speed only, are the backend's ({@link
 * CryptoBackend#newSigner}, {@link CryptoBackend#verify}). A missing provider (a trimmed JDK) is an
 * {@link IllegalStateException}. Thread-safe: each call makes a new engine.
 */
public final class JdkKeys {
  /** The provider of RSA key factories and generators. */
  public static final String RSA_PROVIDER = "SunRsaSign";
  /** The provider of EC key factories and curve parameters. */
  public static final String EC_PROVIDER = "SunEC";

  private JdkKeys() {}

  /** An RSA key factory from {@value #RSA_PROVIDER}. */
  public static KeyFactory rsaKeyFactory() {
    try {
      return KeyFactory.getInstance("RSA", RSA_PROVIDER);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(RSA_PROVIDER + " provider missing", e);
    }
  }

  /** An RSA key pair generator from {@value #RSA_PROVIDER}, not yet initialised. */
  public static KeyPairGenerator rsaKeyPairGenerator() {
    try {
      return KeyPairGenerator.getInstance("RSA", RSA_PROVIDER);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(RSA_PROVIDER + " provider missing", e);
    }
  }

  /** An EC key factory from {@value #EC_PROVIDER}. */
  public static KeyFactory ecKeyFactory() {
    try {
      return KeyFactory.getInstance("EC", EC_PROVIDER);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(EC_PROVIDER + " provider missing", e);
    }
  }

  /** The parameters of the named curve {@code curveName} ({@code secp256r1}) from {@value #EC_PROVIDER}. */
  public static ECParameterSpec ecParameters(String curveName) {
    try {
      AlgorithmParameters parameters = AlgorithmParameters.getInstance("EC", EC_PROVIDER);
      parameters.init(new ECGenParameterSpec(curveName));
      return parameters.getParameterSpec(ECParameterSpec.class);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(EC_PROVIDER + " lacks " + curveName, e);
    }
  }
}
