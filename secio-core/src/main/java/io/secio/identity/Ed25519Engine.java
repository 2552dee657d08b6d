package io.secio.identity;

import io.secio.crypto.CryptoBackends;
import java.security.GeneralSecurityException;
import java.security.InvalidKeyException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.Provider;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.bouncycastle.math.ec.rfc8032.Ed25519;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What computes and checks Ed25519 signatures: Conscrypt (BoringSSL) where it loads and passes the
 * RFC 8032 self-test below, about twice as fast as Bouncy Castle's RFC 8032 code, which is the
 * fallback. Ed25519 is deterministic, so both make the same bytes. A peer's key is validated by Bouncy
 * Castle whichever engine then checks the signature (canonical encoding, on the curve, not of small
 * order: see {@link Ed25519Identity#publicKey}).
 *
 * <p>The choice is made once per JVM and logged at debug level. {@code -Dsecio.backend=jdk} or
 * {@code bouncycastle} pins Bouncy Castle here too (the JDK's own Ed25519 is slower still, and
 * accepts a signature with a zero byte appended). Engines are thread-safe, and so are their signers.
 */
abstract class Ed25519Engine {
  private static final Logger log = LoggerFactory.getLogger(Ed25519Engine.class);

  static final int KEY_SIZE_IN_BYTES = 32;
  static final int SIGNATURE_SIZE_IN_BYTES = 64;

  /** Bouncy Castle's RFC 8032 code: always there. */
  static final Ed25519Engine BOUNCY_CASTLE = new BouncyCastleEngine();

  /** A name for logs and tests: {@code conscrypt} or {@code bouncycastle}. */
  abstract String name();

  /** A signer for the key with this {@code seed}, whose public key is {@code publicData}. */
  abstract KeyScheme.Signer signer(byte[] seed, byte[] publicData) throws InvalidKeyException;

  /**
   * Checks a 64-byte signature under a key already validated: {@code publicData} is its encoding
   * and {@code point} what Bouncy Castle decoded from it.
   */
  abstract boolean verify(byte[] publicData, Ed25519.PublicPoint point, byte[] message,
      byte[] signature) throws GeneralSecurityException;

  /** The engine this JVM uses. */
  static Ed25519Engine best() {
    return Holder.BEST;
  }

  /** Every engine that loads here and passes its self-test, best first; for tests. */
  static List<Ed25519Engine> available() {
    List<Ed25519Engine> engines = new ArrayList<>();
    ConscryptEngine.load().ifPresent(engines::add);
    engines.add(BOUNCY_CASTLE);
    return engines;
  }

  @Override
  public String toString() {
    return "Ed25519 on " + name();
  }

  private static final class Holder {
    static final Ed25519Engine BEST = choose();

    private static Ed25519Engine choose() {
      String pinned = System.getProperty(CryptoBackends.BACKEND_PROPERTY, "").trim()
          .toLowerCase(Locale.ROOT);
      Ed25519Engine engine = pinned.isEmpty() || pinned.equals("auto") || pinned.equals("conscrypt")
          ? ConscryptEngine.load().orElse(BOUNCY_CASTLE)
          : BOUNCY_CASTLE;
      log.debug("secio Ed25519 signatures on {}", engine.name());
      return engine;
    }
  }

  /**
   * RFC 8032 section 7.1, TEST 1 and TEST 3: each signature must come out byte for byte, verify,
   * and stop verifying with one bit flipped or under another message.
   */
  static boolean passesSelfTest(Ed25519Engine engine) {
    String[][] vectors = {
        {"9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
            "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a",
            "",
            "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"},
        {"c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7",
            "fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025",
            "af82",
            "6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac18ff9b538d16f290ae67f760984dc6594a7c15e9716ed28dc027beceea1ec40a"},
    };
    HexFormat hex = HexFormat.of();
    try {
      for (String[] v : vectors) {
        byte[] publicData = hex.parseHex(v[1]);
        byte[] message = hex.parseHex(v[2]);
        byte[] expected = hex.parseHex(v[3]);
        Ed25519.PublicPoint point = Ed25519.validatePublicKeyFullExport(publicData, 0);
        byte[] tampered = expected.clone();
        tampered[SIGNATURE_SIZE_IN_BYTES - 1] ^= 0x01;
        byte[] otherMessage = Arrays.copyOf(message, message.length + 1);
        boolean pass = point != null
            && Arrays.equals(expected, engine.signer(hex.parseHex(v[0]), publicData).sign(message))
            && engine.verify(publicData, point, message, expected)
            && !engine.verify(publicData, point, message, tampered)
            && !engine.verify(publicData, point, otherMessage, expected);
        if (!pass) {
          log.warn("Ed25519 on {}: RFC 8032 self-test failed, not used", engine.name());
          return false;
        }
      }
      return true;
    } catch (GeneralSecurityException | RuntimeException e) {
      log.warn("Ed25519 on {}: RFC 8032 self-test failed, not used ({})", engine.name(), e.toString());
      return false;
    }
  }

  private static final class BouncyCastleEngine extends Ed25519Engine {
    @Override
    String name() {
      return "bouncycastle";
    }

    /** Passing the public key spares Bouncy Castle a second scalar multiplication per signature. */
    @Override
    KeyScheme.Signer signer(byte[] seed, byte[] publicData) {
      byte[] ownSeed = seed.clone();
      byte[] ownPublic = publicData.clone();
      return new KeyScheme.Signer() {
        @Override
        public byte[] sign(byte[] message) {
          byte[] signature = new byte[SIGNATURE_SIZE_IN_BYTES];
          Ed25519.sign(ownSeed, 0, ownPublic, 0, message, 0, message.length, signature, 0);
          return signature;
        }

        /** Never the seed. */
        @Override
        public String toString() {
          return "Ed25519 signer on bouncycastle";
        }
      };
    }

    @Override
    boolean verify(byte[] publicData, Ed25519.PublicPoint point, byte[] message, byte[] signature) {
      return Ed25519.verify(signature, 0, point, message, 0, message.length);
    }
  }

  /** BoringSSL through Conscrypt's {@code EdDSA}, keys in their RFC 8410 DER forms. */
  private static final class ConscryptEngine extends Ed25519Engine {
    private static final String ALGORITHM = "EdDSA";
    /** PKCS#8 OneAsymmetricKey of an Ed25519 seed, up to the seed itself (RFC 8410 section 7). */
    private static final byte[] PRIVATE_KEY_INFO_PREFIX =
        HexFormat.of().parseHex("302e020100300506032b657004220420");
    /** X.509 SubjectPublicKeyInfo of an Ed25519 key, up to the key itself (RFC 8410 section 4). */
    private static final byte[] PUBLIC_KEY_INFO_PREFIX =
        HexFormat.of().parseHex("302a300506032b6570032100");

    private final Provider provider;

    private ConscryptEngine(Provider provider) {
      this.provider = provider;
    }

    /** The engine if Conscrypt's natives load here and its Ed25519 passes the self-test. */
    static Optional<Ed25519Engine> load() {
      return CryptoBackends.conscryptProvider()
          .<Ed25519Engine>map(ConscryptEngine::new)
          .filter(Ed25519Engine::passesSelfTest);
    }

    @Override
    String name() {
      return "conscrypt";
    }

    @Override
    KeyScheme.Signer signer(byte[] seed, byte[] publicData) throws InvalidKeyException {
      byte[] info = concat(PRIVATE_KEY_INFO_PREFIX, seed);
      PrivateKey key;
      try {
        key = KeyFactory.getInstance(ALGORITHM, provider).generatePrivate(new PKCS8EncodedKeySpec(info));
      } catch (GeneralSecurityException e) {
        throw new InvalidKeyException("Conscrypt refused an Ed25519 seed", e);
      } finally {
        Arrays.fill(info, (byte) 0);
      }
      return new KeyScheme.Signer() {
        @Override
        public byte[] sign(byte[] message) throws GeneralSecurityException {
          // A Signature holds state between calls; one per call keeps the signer thread-safe.
          Signature signature = Signature.getInstance(ALGORITHM, provider);
          signature.initSign(key);
          signature.update(message);
          return signature.sign();
        }

        /** Never the key. */
        @Override
        public String toString() {
          return "Ed25519 signer on conscrypt";
        }
      };
    }

    @Override
    boolean verify(byte[] publicData, Ed25519.PublicPoint point, byte[] message, byte[] signature)
        throws GeneralSecurityException {
      PublicKey key = KeyFactory.getInstance(ALGORITHM, provider)
          .generatePublic(new X509EncodedKeySpec(concat(PUBLIC_KEY_INFO_PREFIX, publicData)));
      Signature verifier = Signature.getInstance(ALGORITHM, provider);
      verifier.initVerify(key);
      verifier.update(message);
      return verifier.verify(signature);
    }

    private static byte[] concat(byte[] prefix, byte[] tail) {
      byte[] out = Arrays.copyOf(prefix, prefix.length + tail.length);
      System.arraycopy(tail, 0, out, prefix.length, tail.length);
      return out;
    }
  }
}
