package io.secio.crypto;

import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPairGenerator;
import java.security.Provider;
import java.security.Signature;
import java.security.spec.AlgorithmParameterSpec;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.crypto.Cipher;
import javax.crypto.KeyAgreement;
import javax.crypto.Mac;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.IvParameterSpec;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where one backend's JCA objects come from: a {@link Provider} instance (or, for the JDK, the
 * default provider lookup) and the names that provider gives each algorithm. Nothing here is
 * registered globally with {@link java.security.Security}.
 *
 * <p>Immutable and thread-safe; the objects it creates are not.
 */
final class JcaProfile {
  private static final Logger log = LoggerFactory.getLogger(JcaProfile.class);
  private static final AtomicBoolean CONSCRYPT_MISS_LOGGED = new AtomicBoolean();

  static final String CONSCRYPT = "conscrypt";
  static final String JDK = "jdk";
  static final String BOUNCY_CASTLE = "bouncycastle";

  static final String AES_GCM_TRANSFORMATION = "AES/GCM/NoPadding";
  static final String AES_CTR_TRANSFORMATION = "AES/CTR/NoPadding";
  static final int GCM_TAG_SIZE_IN_BITS = 128;

  private final String name;
  /** Null means the default JCA provider lookup (the JDK backend). */
  private final Provider provider;
  private final String chachaTransformation;
  private final String xdhAlgorithm;
  /** Whether AES-CTR comes from Bouncy Castle's lightweight API (see {@link BcCtrCipher}). */
  private final boolean lightweightCtr;
  /** Whether ephemeral keys come from the provider's KeyPairGenerator (see {@link #jdk()}). */
  private final boolean generatesKeyPairs;

  /** Package-private so that tests can build a profile on a provider that lacks everything. */
  JcaProfile(String name, Provider provider, String chachaTransformation,
      String xdhAlgorithm, boolean lightweightCtr, boolean generatesKeyPairs) {
    this.name = name;
    this.provider = provider;
    this.chachaTransformation = chachaTransformation;
    this.xdhAlgorithm = xdhAlgorithm;
    this.lightweightCtr = lightweightCtr;
    this.generatesKeyPairs = generatesKeyPairs;
  }

  /**
   * The JDK through the default JCA providers (SunJCE and SunEC unless the user reordered them).
   * SunEC's key pair generators are slow on JDK 17 (P-256 about 820 us, X25519 about 250 us, against
   * 130 us and 55 us for a Bouncy Castle public key imported with the JDK's KeyFactory), so its
   * ephemeral keys are built from a scalar chosen here.
   */
  static JcaProfile jdk() {
    return new JcaProfile(JDK, null, "ChaCha20-Poly1305", "XDH", false, false);
  }

  /** A private Bouncy Castle provider instance, or empty if bcprov is missing or broken. */
  static Optional<JcaProfile> bouncyCastle() {
    try {
      Provider provider = new BouncyCastleProvider();
      return Optional.of(
          new JcaProfile(BOUNCY_CASTLE, provider, "ChaCha20-Poly1305", "X25519", true, true));
    } catch (VirtualMachineError e) {
      throw e;
    } catch (Throwable t) {
      log.debug("Bouncy Castle backend unavailable: {}", t.toString());
      return Optional.empty();
    }
  }

  /**
   * Conscrypt (BoringSSL), or empty when its native library does not load on this platform. Any
   * failure short of the JVM itself failing makes the backend absent, never a crash.
   */
  static Optional<JcaProfile> conscrypt() {
    return conscryptProvider().map(provider ->
        new JcaProfile(CONSCRYPT, provider, "ChaCha20/Poly1305/NoPadding", "XDH", false, true));
  }

  /**
   * A new Conscrypt provider, or empty where its jar is left out or its natives do not load here: the
   * first such miss is logged at info, later ones at debug.
   */
  static Optional<Provider> conscryptProvider() {
    try {
      return Optional.of(org.conscrypt.Conscrypt.newProvider());
    } catch (VirtualMachineError e) {
      throw e;
    } catch (Throwable t) { // UnsatisfiedLinkError, NoClassDefFoundError, ExceptionInInitializerError...
      if (CONSCRYPT_MISS_LOGGED.compareAndSet(false, true)) {
        log.info("Conscrypt unavailable ({}); the JDK and Bouncy Castle serve its primitives",
            t.toString());
      } else {
        log.debug("Conscrypt unavailable: {}", t.toString());
      }
      return Optional.empty();
    }
  }

  String name() {
    return name;
  }

  /** A new, uninitialised JCA cipher for {@code transformation}. */
  Cipher cipher(String transformation) throws GeneralSecurityException {
    return provider == null
        ? Cipher.getInstance(transformation)
        : Cipher.getInstance(transformation, provider);
  }

  /** A new, uninitialised AES-CTR cipher whose {@code update} returns every byte it is given. */
  Cipher ctrCipher() throws GeneralSecurityException {
    return lightweightCtr ? new BcCtrCipher(provider) : cipher(AES_CTR_TRANSFORMATION);
  }

  Mac mac(String algorithm) throws GeneralSecurityException {
    return provider == null ? Mac.getInstance(algorithm) : Mac.getInstance(algorithm, provider);
  }

  Signature signature(String algorithm) throws GeneralSecurityException {
    return provider == null
        ? Signature.getInstance(algorithm)
        : Signature.getInstance(algorithm, provider);
  }

  KeyAgreement keyAgreement(String algorithm) throws GeneralSecurityException {
    return provider == null
        ? KeyAgreement.getInstance(algorithm)
        : KeyAgreement.getInstance(algorithm, provider);
  }

  KeyFactory keyFactory(String algorithm) throws GeneralSecurityException {
    return provider == null
        ? KeyFactory.getInstance(algorithm)
        : KeyFactory.getInstance(algorithm, provider);
  }

  /**
   * Whether ephemeral keys should come from {@link #keyPairGenerator}: then the private key never
   * passes through our heap, and with Conscrypt it is many times faster.
   */
  boolean generatesKeyPairs() {
    return generatesKeyPairs;
  }

  KeyPairGenerator keyPairGenerator(String algorithm) throws GeneralSecurityException {
    return provider == null
        ? KeyPairGenerator.getInstance(algorithm)
        : KeyPairGenerator.getInstance(algorithm, provider);
  }

  /** This provider's transformation for an AEAD primitive. */
  String aeadTransformation(Primitive aead) {
    switch (aead) {
      case AES_GCM:
        return AES_GCM_TRANSFORMATION;
      case CHACHA20_POLY1305:
        return chachaTransformation;
      default:
        throw new IllegalArgumentException("not an AEAD: " + aead);
    }
  }

  /** The JCA key algorithm of an AEAD primitive. */
  static String aeadKeyAlgorithm(Primitive aead) {
    return aead == Primitive.AES_GCM ? "AES" : "ChaCha20";
  }

  /**
   * The per-message parameters of an AEAD primitive: every provider here takes a GCM spec with a
   * 128-bit tag for AES-GCM and a bare nonce for ChaCha20-Poly1305.
   */
  static AlgorithmParameterSpec aeadParameters(Primitive aead, byte[] nonce) {
    return aead == Primitive.AES_GCM
        ? new GCMParameterSpec(GCM_TAG_SIZE_IN_BITS, nonce)
        : new IvParameterSpec(nonce);
  }

  /** This provider's KeyAgreement, KeyFactory and KeyPairGenerator name for X25519. */
  String xdhAlgorithm() {
    return xdhAlgorithm;
  }

  @Override
  public String toString() {
    return name;
  }
}
