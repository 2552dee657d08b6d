package io.secio.crypto;

import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.InvalidKeyException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.security.SignatureException;
import java.security.spec.ECPrivateKeySpec;
import java.security.spec.ECPublicKeySpec;
import java.security.spec.KeySpec;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.Arrays;
import java.util.HexFormat;
import org.bouncycastle.asn1.x9.X9ECParameters;
import org.bouncycastle.crypto.digests.SHA256Digest;
import org.bouncycastle.crypto.ec.CustomNamedCurves;
import org.bouncycastle.crypto.params.ECDomainParameters;
import org.bouncycastle.crypto.params.ECPrivateKeyParameters;
import org.bouncycastle.crypto.params.ECPublicKeyParameters;
import org.bouncycastle.crypto.signers.ECDSASigner;
import org.bouncycastle.crypto.signers.HMacDSAKCalculator;
import org.bouncycastle.math.ec.rfc8032.Ed25519;

/**
 * The identity signatures of one {@link JcaProfile}, before any self-test (only {@link JcaBackend}
 * and {@link KnownAnswers} call it):
 *
 * <ul>
 *   <li>Ed25519: Conscrypt's {@code EdDSA}, the JDK's {@code Ed25519}, or Bouncy Castle's RFC 8032
 *       code. A signature the provider refuses is judged again by Bouncy Castle's check, which is
 *       cofactored ({@code [8][S]B = [8]R + [8][k]A}), and a signature any provider accepts passes it
 *       too; so every backend gives the cofactored verdict, also for keys and R with a small-order
 *       component, where BoringSSL's and the JDK's cofactorless check alone would differ
 *       (docs/PROTOCOL.md section 3.1). Only 64-byte signatures are looked at (the JDK accepts one
 *       with a zero byte appended).
 *   <li>ECDSA P-256 and RSA: the provider's {@code SHA256withECDSA} and {@code SHA256withRSA}; Bouncy
 *       Castle signs and checks ECDSA with its lightweight code (RFC 6979 nonces) and RSA through its
 *       provider. The JDK's backend checks ECDSA with Bouncy Castle's code too: SunEC refuses valid
 *       signatures where kG has an x-coordinate of n or more (Wycheproof 350 and 479).
 *   <li>secp256k1: Bouncy Castle's lightweight code on every backend, deterministic (RFC 6979) and
 *       low-S: neither the JDK (since 16) nor BoringSSL has the curve.
 * </ul>
 *
 * <p>Thread-safe; each call makes its own JCA objects, each signer holds one imported key.
 */
final class JcaSignatures {
  private static final HexFormat HEX = HexFormat.of();
  /** PKCS#8 OneAsymmetricKey of an Ed25519 seed, up to the seed itself (RFC 8410 section 7). */
  private static final byte[] ED25519_PRIVATE_KEY_INFO_PREFIX =
      HEX.parseHex("302e020100300506032b657004220420");
  /** X.509 SubjectPublicKeyInfo of an Ed25519 key, up to the key itself (RFC 8410 section 4). */
  private static final byte[] ED25519_PUBLIC_KEY_INFO_PREFIX = HEX.parseHex("302a300506032b6570032100");

  private static final ECDomainParameters P256 = domain("secp256r1");
  private static final ECDomainParameters SECP256K1 = domain("secp256k1");

  private final JcaProfile profile;
  /** Bouncy Castle: Ed25519 and ECDSA through the lightweight API, not the provider. */
  private final boolean lightweight;
  /** Bouncy Castle and the JDK: SunEC refuses valid P-256 signatures (Wycheproof 350, 479). */
  private final boolean lightweightEcdsaVerify;
  private final String ed25519Algorithm;

  JcaSignatures(JcaProfile profile) {
    this.profile = profile;
    this.lightweight = profile.name().equals(JcaProfile.BOUNCY_CASTLE);
    this.lightweightEcdsaVerify = lightweight || profile.name().equals(JcaProfile.JDK);
    this.ed25519Algorithm = profile.name().equals(JcaProfile.CONSCRYPT) ? "EdDSA" : "Ed25519";
  }

  Signer newSigner(Primitive signature, KeySpec privateKey) throws GeneralSecurityException {
    switch (signature) {
      case ED25519:
        return ed25519Signer(cast(Ed25519KeySpecs.Private.class, privateKey));
      case ECDSA_P256:
        return lightweight
            ? ecdsaSigner(P256, cast(ECPrivateKeySpec.class, privateKey), false)
            : jcaSigner("EC", "SHA256withECDSA", privateKey);
      case ECDSA_SECP256K1:
        return ecdsaSigner(SECP256K1, cast(ECPrivateKeySpec.class, privateKey), true);
      case RSA_SHA256:
        return jcaSigner("RSA", "SHA256withRSA", privateKey);
      default:
        throw new IllegalArgumentException(signature + " is not a signature");
    }
  }

  boolean verify(Primitive signature, KeySpec publicKey, byte[] message, byte[] sig)
      throws GeneralSecurityException {
    switch (signature) {
      case ED25519:
        return ed25519Verify(cast(Ed25519KeySpecs.Public.class, publicKey), message, sig);
      case ECDSA_P256:
        return lightweightEcdsaVerify
            ? ecdsaVerify(P256, cast(ECPublicKeySpec.class, publicKey), message, sig)
            : jcaVerify("EC", "SHA256withECDSA", publicKey, message, sig);
      case ECDSA_SECP256K1:
        return ecdsaVerify(SECP256K1, cast(ECPublicKeySpec.class, publicKey), message, sig);
      case RSA_SHA256:
        return jcaVerify("RSA", "SHA256withRSA", publicKey, message, sig);
      default:
        throw new IllegalArgumentException(signature + " is not a signature");
    }
  }

  private Signer ed25519Signer(Ed25519KeySpecs.Private key) throws GeneralSecurityException {
    if (key.seed().length != Ed25519KeySpecs.KEY_SIZE_IN_BYTES
        || key.publicData().length != Ed25519KeySpecs.KEY_SIZE_IN_BYTES) {
      throw new InvalidKeyException("an Ed25519 seed and public key are 32 bytes each");
    }
    if (lightweight) {
      byte[] seed = key.seed().clone();
      byte[] publicData = key.publicData().clone();
      // Passing the public key spares Bouncy Castle a second scalar multiplication per signature.
      return named("Ed25519 signer on " + profile.name(), message -> {
        byte[] out = new byte[Ed25519KeySpecs.SIGNATURE_SIZE_IN_BYTES];
        Ed25519.sign(seed, 0, publicData, 0, message, 0, message.length, out, 0);
        return out;
      });
    }
    byte[] info = concat(ED25519_PRIVATE_KEY_INFO_PREFIX, key.seed());
    try {
      return jcaSigner(ed25519Algorithm, ed25519Algorithm, new PKCS8EncodedKeySpec(info));
    } finally {
      Arrays.fill(info, (byte) 0);
    }
  }

  private boolean ed25519Verify(Ed25519KeySpecs.Public key, byte[] message, byte[] sig)
      throws GeneralSecurityException {
    if (sig.length != Ed25519KeySpecs.SIGNATURE_SIZE_IN_BYTES) {
      return false;
    }
    if (!lightweight) {
      boolean accepted;
      try {
        accepted = jcaVerify(ed25519Algorithm, ed25519Algorithm,
            new X509EncodedKeySpec(concat(ED25519_PUBLIC_KEY_INFO_PREFIX, key.encoded())), message, sig);
      } catch (SignatureException refused) {
        accepted = false;
      }
      if (accepted) {
        return true;
      }
    }
    return Ed25519.verify(sig, 0, key.point(), message, 0, message.length);
  }

  private Signer jcaSigner(String keyAlgorithm, String algorithm, KeySpec spec)
      throws GeneralSecurityException {
    PrivateKey key = keyFactory(keyAlgorithm).generatePrivate(spec);
    return named(algorithm + " signer on " + profile.name(), message -> {
      // A Signature holds state between calls; one per call keeps the signer thread-safe.
      Signature signer = profile.signature(algorithm);
      signer.initSign(key);
      signer.update(message);
      return signer.sign();
    });
  }

  private boolean jcaVerify(String keyAlgorithm, String algorithm, KeySpec spec, byte[] message,
      byte[] sig) throws GeneralSecurityException {
    PublicKey key = keyFactory(keyAlgorithm).generatePublic(spec);
    Signature verifier = profile.signature(algorithm);
    verifier.initVerify(key);
    verifier.update(message);
    return verifier.verify(sig);
  }

  private KeyFactory keyFactory(String algorithm) throws GeneralSecurityException {
    return profile.keyFactory(algorithm);
  }

  private Signer ecdsaSigner(ECDomainParameters domain, ECPrivateKeySpec spec, boolean lowS)
      throws InvalidKeyException {
    BigInteger d = spec.getS();
    if (d.signum() <= 0 || d.compareTo(domain.getN()) >= 0) {
      throw new InvalidKeyException("EC private key out of range");
    }
    ECPrivateKeyParameters key = new ECPrivateKeyParameters(d, domain);
    BigInteger half = domain.getN().shiftRight(1);
    return named("ECDSA signer on " + profile.name(), message -> {
      ECDSASigner signer = new ECDSASigner(new HMacDSAKCalculator(new SHA256Digest()));
      signer.init(true, key);
      BigInteger[] rs = signer.generateSignature(sha256(message));
      // (r, n - s) verifies too; libp2p's secp256k1 peers accept only the low one.
      BigInteger s = lowS && rs[1].compareTo(half) > 0 ? domain.getN().subtract(rs[1]) : rs[1];
      return new EcdsaSignature(rs[0], s).toDer();
    });
  }

  private static boolean ecdsaVerify(ECDomainParameters domain, ECPublicKeySpec spec,
      byte[] message, byte[] sig) throws GeneralSecurityException {
    ECPublicKeyParameters key;
    try {
      key = new ECPublicKeyParameters(domain.getCurve()
          .validatePoint(spec.getW().getAffineX(), spec.getW().getAffineY()), domain);
    } catch (IllegalArgumentException | NullPointerException e) {
      throw new InvalidKeyException("EC public key is not on the curve", e);
    }
    EcdsaSignature rs = EcdsaSignature.fromDer(sig);
    ECDSASigner verifier = new ECDSASigner();
    verifier.init(false, key);
    return verifier.verifySignature(sha256(message), rs.r(), rs.s());
  }

  private static byte[] sha256(byte[] message) {
    SHA256Digest digest = new SHA256Digest();
    digest.update(message, 0, message.length);
    byte[] out = new byte[digest.getDigestSize()];
    digest.doFinal(out, 0);
    return out;
  }

  private static ECDomainParameters domain(String name) {
    X9ECParameters curve = CustomNamedCurves.getByName(name);
    return new ECDomainParameters(curve);
  }

  private static <T extends KeySpec> T cast(Class<T> type, KeySpec spec) throws InvalidKeyException {
    if (!type.isInstance(spec)) {
      throw new InvalidKeyException("expected a " + type.getSimpleName());
    }
    return type.cast(spec);
  }

  private static byte[] concat(byte[] prefix, byte[] tail) {
    byte[] out = Arrays.copyOf(prefix, prefix.length + tail.length);
    System.arraycopy(tail, 0, out, prefix.length, tail.length);
    return out;
  }

  /** A signer whose {@code toString} names it, never its key. */
  private static Signer named(String name, Signer signer) {
    return new Signer() {
      @Override
      public byte[] sign(byte[] message) throws GeneralSecurityException {
        return signer.sign(message);
      }

      @Override
      public String toString() {
        return name;
      }
    };
  }
}
