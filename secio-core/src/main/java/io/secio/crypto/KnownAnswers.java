package io.secio.crypto;

import io.secio.protocol.CipherAlgorithm;
import io.secio.protocol.ExchangeAlgorithm;
import io.secio.protocol.HashAlgorithm;
import io.secio.protocol.SecioException;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.HexFormat;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import org.bouncycastle.crypto.engines.AESEngine;
import org.bouncycastle.crypto.params.KeyParameter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One known-answer self-test per primitive (the signatures' are in {@link SignatureKnownAnswers}),
 * from published vectors, run through the same code paths the frames and the handshake use. A
 * primitive whose test fails or throws is not offered.
 *
 * <p>Stateless and thread-safe.
 */
final class KnownAnswers {
  private static final Logger log = LoggerFactory.getLogger(KnownAnswers.class);
  private static final HexFormat HEX = HexFormat.of();

  private KnownAnswers() {}

  /** Whether {@code primitive} of {@code backend} gives the published answers; logs a warning if not. */
  static boolean pass(Primitive primitive, CryptoBackend backend) {
    try {
      switch (primitive) {
        case AES_GCM:
          return aesGcm(backend) || failed(primitive, backend, "wrong answer");
        case CHACHA20_POLY1305:
          return chacha20Poly1305(backend) || failed(primitive, backend, "wrong answer");
        case AES_CTR:
          return aesCtr(backend) || failed(primitive, backend, "wrong answer");
        case HMAC_SHA256:
        case HMAC_SHA512:
          return hmac(primitive, backend) || failed(primitive, backend, "wrong answer");
        case ECDH_P256:
        case ECDH_P384:
        case ECDH_P521:
          return ecdh(primitive, backend) || failed(primitive, backend, "wrong answer");
        case X25519:
          return x25519(backend) || failed(primitive, backend, "wrong answer");
        case ED25519:
        case ECDSA_P256:
        case ECDSA_SECP256K1:
        case RSA_SHA256:
          return SignatureKnownAnswers.pass(primitive, backend)
              || failed(primitive, backend, "wrong answer");
        default:
          throw new AssertionError(primitive);
      }
    } catch (GeneralSecurityException | RuntimeException | LinkageError e) {
      return failed(primitive, backend, e.toString());
    }
  }

  private static boolean failed(Primitive primitive, CryptoBackend backend, String why) {
    log.warn("{} {}: known-answer self-test failed, not offered ({})", backend.name(), primitive, why);
    return false;
  }

  /** McGrew and Viega, "The Galois/Counter Mode of Operation", test cases 3 (AES-128) and 15 (AES-256). */
  private static boolean aesGcm(CryptoBackend backend) throws GeneralSecurityException {
    String iv = "cafebabefacedbaddecaf888";
    String plaintext = "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72"
        + "1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b391aafd255";
    return aead(backend, CipherAlgorithm.AES_128_GCM, "feffe9928665731c6d6a8f9467308308", iv,
            plaintext,
            "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e"
                + "21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091473f5985"
                + "4d5c2af327cd64a62cf35abd2ba6fab4")
        && aead(backend, CipherAlgorithm.AES_256_GCM,
            "feffe9928665731c6d6a8f9467308308feffe9928665731c6d6a8f9467308308", iv, plaintext,
            "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa"
                + "8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662898015ad"
                + "b094dac5d93471bdec1a502270e3cc6c");
  }

  /**
   * Project Wycheproof chacha20_poly1305_test.json tcId 66 (no associated data, which the RFC 8439
   * section 2.8.2 example has and secio frames do not).
   */
  private static boolean chacha20Poly1305(CryptoBackend backend) throws GeneralSecurityException {
    return aead(backend, CipherAlgorithm.CHACHA20_POLY1305,
        "e1731d5854e1b70cb3ffe8b786a2b3ebf0994370954757b9dc8c7bc5354634a3",
        "72cfd90ef3026ca22b7e6e6a",
        "b9c554cbc36ac18ae897df7beecac1dbeb4eafa156bb60ce2e5d48f05715e678",
        "ea29afa49d36e8760f5fe19723b9811ed5d519934a440f5081ac430b953b0e21"
            + "222541af46b86533c6b68d2ff108a7ea");
  }

  /** Seals, opens, and checks that one flipped tag bit is refused. */
  private static boolean aead(CryptoBackend backend, CipherAlgorithm cipher, String key,
      String nonce, String plaintext, String sealed) throws GeneralSecurityException {
    byte[] n = HEX.parseHex(nonce);
    byte[] p = HEX.parseHex(plaintext);
    byte[] expected = HEX.parseHex(sealed);
    AeadCipher aead = backend.newAead(cipher, HEX.parseHex(key));
    ByteBuffer out = ByteBuffer.allocate(p.length + aead.tagSizeInBytes());
    aead.seal(n, ByteBuffer.wrap(p), out);
    if (out.hasRemaining() || !Arrays.equals(out.array(), expected)) {
      return false;
    }
    ByteBuffer opened = ByteBuffer.allocate(p.length);
    aead.open(n, ByteBuffer.wrap(expected), opened);
    if (opened.hasRemaining() || !Arrays.equals(opened.array(), p)) {
      return false;
    }
    byte[] tampered = expected.clone();
    tampered[tampered.length - 1] ^= 1;
    try {
      aead.open(n, ByteBuffer.wrap(tampered), ByteBuffer.allocate(p.length));
      return false;
    } catch (AEADBadTagException expectedFailure) {
      return true;
    }
  }

  /**
   * NIST SP 800-38A F.5.1 (CTR-AES128) and F.5.5 (CTR-AES256), fed in uneven pieces so the keystream
   * must continue across calls; then the counter's carry out of the low 64 bits and its wrap at
   * 2^128, against single AES blocks from Bouncy Castle's engine.
   */
  private static boolean aesCtr(CryptoBackend backend) throws GeneralSecurityException {
    String counter = "f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff";
    String plaintext = "6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e51"
        + "30c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710";
    String key128 = "2b7e151628aed2a6abf7158809cf4f3c";
    return ctr(backend, CipherAlgorithm.AES_128_CTR, key128, counter, plaintext,
            "874d6191b620e3261bef6864990db6ce9806f66b7970fdff8617187bb9fffdff"
                + "5ae4df3edbd5d35e5b4f09020db03eab1e031dda2fbe03d1792170a0f3009cee")
        && ctr(backend, CipherAlgorithm.AES_256_CTR,
            "603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4", counter, plaintext,
            "601ec313775789a5b7a7f504bbf3d228f443e3ca4d62b59aca84e990cacaf5c5"
                + "2b0930daa23de94ce87017ba2d84988ddfc9c58db67aada613c2dd08457941a6")
        && ctrCounter(backend, key128, "0000000000000000ffffffffffffffff",
            "00000000000000010000000000000000")
        && ctrCounter(backend, key128, "ffffffffffffffffffffffffffffffff",
            "00000000000000000000000000000000");
  }

  private static boolean ctr(CryptoBackend backend, CipherAlgorithm cipher, String key, String iv,
      String plaintext, String ciphertext) throws GeneralSecurityException {
    Cipher ctr = backend.newCtr(cipher, HEX.parseHex(key), HEX.parseHex(iv));
    byte[] p = HEX.parseHex(plaintext);
    byte[] out = new byte[p.length];
    int[] cuts = {0, 5, 21, 22, 48, p.length};
    for (int i = 0; i + 1 < cuts.length; i++) {
      int written = ctr.update(p, cuts[i], cuts[i + 1] - cuts[i], out, cuts[i]);
      if (written != cuts[i + 1] - cuts[i]) {
        return false;
      }
    }
    return Arrays.equals(out, HEX.parseHex(ciphertext));
  }

  /** The second keystream block after {@code iv} must be AES(key, {@code next}). */
  private static boolean ctrCounter(CryptoBackend backend, String key, String iv, String next)
      throws GeneralSecurityException {
    byte[] k = HEX.parseHex(key);
    Cipher ctr = backend.newCtr(CipherAlgorithm.AES_128_CTR, k, HEX.parseHex(iv));
    byte[] keystream = ctr.update(new byte[32]);
    AESEngine aes = new AESEngine();
    aes.init(true, new KeyParameter(k));
    byte[] expected = new byte[16];
    aes.processBlock(HEX.parseHex(next), 0, expected, 0);
    return keystream != null && keystream.length == 32
        && Arrays.equals(Arrays.copyOfRange(keystream, 16, 32), expected);
  }

  /** RFC 4231 test case 2: key "Jefe", data "what do ya want for nothing?". */
  private static boolean hmac(Primitive primitive, CryptoBackend backend)
      throws GeneralSecurityException {
    HashAlgorithm hash = primitive == Primitive.HMAC_SHA256 ? HashAlgorithm.SHA256 : HashAlgorithm.SHA512;
    String expected = hash == HashAlgorithm.SHA256
        ? "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        : "164b7a7bfcf819e2e395fbe73b56e0a387bd64222e831fd610270cd7ea250554"
            + "9758bf75c05a994a6d034f65f8f0e6fdcaeab1a34d4a6b4b636e070a38bce737";
    Mac mac = backend.newHmac(hash, HEX.parseHex("4a656665"));
    byte[] tag = mac.doFinal(HEX.parseHex("7768617420646f2079612077616e7420666f72206e6f7468696e673f"));
    return Arrays.equals(tag, HEX.parseHex(expected));
  }

  /**
   * RFC 5903 sections 8.1 (P-256), 8.2 (P-384) and 8.3 (P-521): the initiator's public point from
   * its scalar i, and girx from i and the responder's point; then a generated key must be a pair.
   */
  private static boolean ecdh(Primitive primitive, CryptoBackend backend)
      throws GeneralSecurityException {
    Rfc5903 v = Rfc5903.of(primitive);
    EphemeralKeyPair initiator = backend.ephemeralFromPrivate(v.exchange(), HEX.parseHex(v.i()));
    try {
      return Arrays.equals(initiator.publicKey(), HEX.parseHex("04" + v.gix() + v.giy()))
          && Arrays.equals(
              initiator.agree(HEX.parseHex("04" + v.grx() + v.gry())), HEX.parseHex(v.girx()))
          && generatesPairs(backend, initiator);
    } finally {
      initiator.destroy();
    }
  }

  /**
   * Generation draws fresh randomness, so it has no known answer: instead a generated key must agree
   * with {@code known} (already proven right) on the same secret from both sides, which fails when
   * its public key is not the one of its private key or is encoded wrongly.
   */
  private static boolean generatesPairs(CryptoBackend backend, EphemeralKeyPair known)
      throws GeneralSecurityException {
    EphemeralKeyPair generated = backend.generateEphemeral(known.exchange(), new SecureRandom());
    try {
      return generated.publicKey().length == known.exchange().publicKeySizeInBytes()
          && Arrays.equals(generated.agree(known.publicKey()), known.agree(generated.publicKey()));
    } finally {
      generated.destroy();
    }
  }

  /**
   * RFC 7748 section 6.1: Alice's public key from her private key and the shared secret with Bob;
   * then the all-zero u-coordinate, a small-order point, must be refused, and a generated key must
   * be a pair.
   */
  private static boolean x25519(CryptoBackend backend) throws GeneralSecurityException {
    EphemeralKeyPair alice = backend.ephemeralFromPrivate(ExchangeAlgorithm.X25519,
        HEX.parseHex("77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a"));
    try {
      boolean right = Arrays.equals(alice.publicKey(),
              HEX.parseHex("8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a"))
          && Arrays.equals(
              alice.agree(HEX.parseHex("de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f")),
              HEX.parseHex("4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742"));
      if (!right) {
        return false;
      }
      try {
        alice.agree(new byte[X25519KeyPair.KEY_SIZE_IN_BYTES]);
        return false;
      } catch (SecioException expected) {
        if (expected.reason() != SecioException.Reason.BAD_EPHEMERAL_KEY) {
          return false;
        }
      }
      return generatesPairs(backend, alice);
    } finally {
      alice.destroy();
    }
  }
}
