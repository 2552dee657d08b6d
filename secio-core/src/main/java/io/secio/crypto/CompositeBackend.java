package io.secio.crypto;

import io.secio.protocol.CipherAlgorithm;
import io.secio.protocol.ExchangeAlgorithm;
import io.secio.protocol.HashAlgorithm;
import io.secio.protocol.SecioException;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.security.spec.KeySpec;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.StringJoiner;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.Function;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code auto} backend: for each primitive, the first backend in that primitive's preference
 * order that loads here and passes its self-test. Each primitive is chosen once, when it is first
 * asked for: a backend (and its provider) is loaded only when a primitive gets that far down its
 * order, so a JVM with Conscrypt never builds Bouncy Castle's provider (about 0.2 s) and never
 * self-tests a primitive it does not use.
 *
 * <p>Preferences, from measurements on JDK 17: AES-GCM and ChaCha20-Poly1305 prefer Conscrypt (the
 * JDK's GCM is slow until the JIT has warmed it, and Conscrypt's ChaCha20-Poly1305 is about eight
 * times the JDK's); AES-CTR and HMAC prefer the JDK (Conscrypt's CTR collapses above 64 KiB on
 * direct buffers, and the warmed JDK CTR plus HMAC is the fastest); the key exchanges prefer
 * Conscrypt. Signatures: Ed25519 prefers Conscrypt, then Bouncy Castle (about half Conscrypt's
 * speed; the JDK's is slower still); RSA prefers the JDK (SunRsaSign, as before this seam); ECDSA
 * prefers Conscrypt (secp256k1 is Bouncy Castle's code on every backend). Otherwise Bouncy Castle is
 * the last resort.
 *
 * <p>Thread-safe; each primitive is chosen once even when threads race for it.
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
  private static final List<String> ED25519_ORDER =
      List.of(JcaProfile.CONSCRYPT, JcaProfile.BOUNCY_CASTLE, JcaProfile.JDK);
  private static final List<String> RSA_ORDER =
      List.of(JcaProfile.JDK, JcaProfile.CONSCRYPT, JcaProfile.BOUNCY_CASTLE);

  /** Finds a backend by name, loading it on first request. */
  private final Function<String, Optional<CryptoBackend>> named;
  private final ConcurrentMap<Primitive, Optional<CryptoBackend>> chosen = new ConcurrentHashMap<>();

  private CompositeBackend(Function<String, Optional<CryptoBackend>> named) {
    this.named = named;
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
      case ED25519:
        return ED25519_ORDER;
      case RSA_SHA256:
        return RSA_ORDER;
      default:
        return EXCHANGE_ORDER;
    }
  }

  /** Picks, per primitive, the first of {@code available} (by name) that offers it. */
  static CompositeBackend choose(Map<String, CryptoBackend> available) {
    Map<String, CryptoBackend> copy = Map.copyOf(available);
    return choose(name -> Optional.ofNullable(copy.get(name)));
  }

  /**
   * Picks, per primitive and when first asked, the first backend that {@code named} finds (and
   * loads) in the primitive's preference order and that offers it.
   */
  static CompositeBackend choose(Function<String, Optional<CryptoBackend>> named) {
    return new CompositeBackend(named);
  }

  private Optional<CryptoBackend> chosen(Primitive primitive) {
    Optional<CryptoBackend> backend = chosen.get(primitive);
    return backend != null ? backend : chosen.computeIfAbsent(primitive, this::pick);
  }

  /** The first backend in {@code primitive}'s order that loads and offers it, logged at debug. */
  private Optional<CryptoBackend> pick(Primitive primitive) {
    for (String name : preference(primitive)) {
      Optional<CryptoBackend> backend = named.apply(name).filter(b -> b.offers(primitive));
      if (backend.isPresent()) {
        log.debug("secio crypto backend auto: {}={}", primitive, name);
        return backend;
      }
    }
    log.debug("secio crypto backend auto: {}={}", primitive, NONE);
    return Optional.empty();
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public boolean offers(Primitive primitive) {
    return chosen(primitive).isPresent();
  }

  @Override
  public String nameFor(Primitive primitive) {
    return chosen(primitive).map(CryptoBackend::name).orElse(NONE);
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

  @Override
  public Signer newSigner(Primitive signature, KeySpec privateKey) throws GeneralSecurityException {
    return backendFor(signature).newSigner(signature, privateKey);
  }

  @Override
  public boolean verify(Primitive signature, KeySpec publicKey, byte[] message, byte[] sig)
      throws GeneralSecurityException {
    return backendFor(signature).verify(signature, publicKey, message, sig);
  }

  private CryptoBackend backendFor(Primitive primitive) throws SecioException {
    Optional<CryptoBackend> backend = chosen(primitive);
    if (backend.isEmpty()) {
      throw new SecioException(
          SecioException.Reason.UNAVAILABLE, primitive + " passed its self-test on no backend");
    }
    return backend.get();
  }

  /** Every primitive's choice, making the ones not made yet. */
  @Override
  public String toString() {
    StringJoiner s = new StringJoiner(", ", NAME + "{", "}");
    for (Primitive p : Primitive.values()) {
      s.add(p + "=" + nameFor(p));
    }
    return s.toString();
  }
}
