package io.secio.crypto;

import io.secio.CipherAlgorithm;
import io.secio.ExchangeAlgorithm;
import io.secio.HashAlgorithm;
import io.secio.SecioException;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code auto} backend: for each primitive, the first backend in that primitive's preference
 * order that loads here and passed its self-test. The choice is made once, at construction.
 *
 * <p>Preferences, from measurements on JDK 17: AES-GCM and ChaCha20-Poly1305 prefer Conscrypt (the
 * JDK's GCM is slow until the JIT has warmed it, and Conscrypt's ChaCha20-Poly1305 is about eight
 * times the JDK's); AES-CTR and HMAC prefer the JDK (Conscrypt's CTR collapses above 64 KiB on
 * direct buffers, and the warmed JDK CTR plus HMAC is the fastest); the key exchanges prefer
 * Conscrypt. Bouncy Castle is always the last resort.
 *
 * <p>Immutable and thread-safe.
 */
final class CompositeBackend implements CryptoBackend {
  static final String NAME = "auto";
  /** What {@link #nameFor} reports for a primitive no backend offers. */
  static final String NONE = "none";

  private static final Logger log = LoggerFactory.getLogger(CompositeBackend.class);

  private static final List<String> SYMMETRIC_AEAD_ORDER =
      List.of(JcaProfile.CONSCRYPT, JcaProfile.JDK, JcaProfile.BOUNCY_CASTLE);
  private static final List<String> STREAM_AND_MAC_ORDER =
      List.of(JcaProfile.JDK, JcaProfile.CONSCRYPT, JcaProfile.BOUNCY_CASTLE);
  private static final List<String> EXCHANGE_ORDER =
      List.of(JcaProfile.CONSCRYPT, JcaProfile.JDK, JcaProfile.BOUNCY_CASTLE);

  private final Map<Primitive, CryptoBackend> chosen;

  private CompositeBackend(Map<Primitive, CryptoBackend> chosen) {
    this.chosen = Collections.unmodifiableMap(chosen);
  }

  /** The preferred backends of a primitive, most preferred first. */
  static List<String> preference(Primitive primitive) {
    switch (primitive) {
      case AES_GCM:
      case CHACHA20_POLY1305:
        return SYMMETRIC_AEAD_ORDER;
      case AES_CTR:
      case HMAC_SHA256:
      case HMAC_SHA512:
        return STREAM_AND_MAC_ORDER;
      default:
        return EXCHANGE_ORDER;
    }
  }

  /** Picks, per primitive, the first of {@code available} (by name) that offers it. */
  static CompositeBackend choose(Map<String, CryptoBackend> available) {
    Map<Primitive, CryptoBackend> chosen = new EnumMap<>(Primitive.class);
    StringJoiner summary = new StringJoiner(", ");
    for (Primitive p : Primitive.values()) {
      for (String name : preference(p)) {
        CryptoBackend backend = available.get(name);
        if (backend != null && backend.offers(p)) {
          chosen.put(p, backend);
          break;
        }
      }
      summary.add(p + "=" + (chosen.containsKey(p) ? chosen.get(p).name() : NONE));
    }
    log.debug("secio crypto backend auto: {}", summary);
    return new CompositeBackend(chosen);
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public boolean offers(Primitive primitive) {
    return chosen.containsKey(primitive);
  }

  @Override
  public String nameFor(Primitive primitive) {
    CryptoBackend backend = chosen.get(primitive);
    return backend == null ? NONE : backend.name();
  }

  @Override
  public AeadCipher newAead(CipherAlgorithm cipher, byte[] key) throws GeneralSecurityException {
    return backendFor(Primitive.of(cipher)).newAead(cipher, key);
  }

  @Override
  public Cipher newCtr(CipherAlgorithm cipher, byte[] key, byte[] iv)
      throws GeneralSecurityException {
    return backendFor(Primitive.of(cipher)).newCtr(cipher, key, iv);
  }

  @Override
  public Mac newHmac(HashAlgorithm hash, byte[] key) throws GeneralSecurityException {
    return backendFor(Primitive.of(hash)).newHmac(hash, key);
  }

  @Override
  public EphemeralKeyPair generateEphemeral(ExchangeAlgorithm exchange, SecureRandom random)
      throws GeneralSecurityException {
    return backendFor(Primitive.of(exchange)).generateEphemeral(exchange, random);
  }

  @Override
  public EphemeralKeyPair ephemeralFromPrivate(ExchangeAlgorithm exchange, byte[] privateKey)
      throws GeneralSecurityException {
    return backendFor(Primitive.of(exchange)).ephemeralFromPrivate(exchange, privateKey);
  }

  private CryptoBackend backendFor(Primitive primitive) throws SecioException {
    CryptoBackend backend = chosen.get(primitive);
    if (backend == null) {
      throw new SecioException(
          SecioException.Reason.UNAVAILABLE, primitive + " passed its self-test on no backend");
    }
    return backend;
  }

  @Override
  public String toString() {
    StringJoiner s = new StringJoiner(", ", NAME + "{", "}");
    for (Primitive p : Primitive.values()) {
      s.add(p + "=" + nameFor(p));
    }
    return s.toString();
  }
}
