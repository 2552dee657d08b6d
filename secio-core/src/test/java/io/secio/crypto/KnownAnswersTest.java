package io.secio.crypto;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.secio.protocol.CipherAlgorithm;
import io.secio.protocol.ExchangeAlgorithm;
import io.secio.protocol.HashAlgorithm;
import io.secio.protocol.SecioException;
import io.secio.testing.ForwardingAead;
import io.secio.testing.ForwardingBackend;
import io.secio.testing.ForwardingEphemeralKeyPair;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.security.spec.KeySpec;
import java.util.function.UnaryOperator;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.junit.jupiter.api.Test;

/**
 * The self-tests catch a broken primitive: each case wraps the JDK's correct primitives and breaks
 * one thing the way a faulty provider could. A self-test that passed these would be worthless.
 */
class KnownAnswersTest {
  private static final CryptoBackend JDK = new JcaPrimitives(JcaProfile.jdk());
  private static final Primitive[] EXCHANGES = {
    Primitive.ECDH_P256, Primitive.ECDH_P384, Primitive.ECDH_P521, Primitive.X25519
  };

  /** Everything the JDK's, offering everything; each test overrides the one method it breaks. */
  private static class Delegating extends ForwardingBackend {
    Delegating() {
      super(JDK);
    }

    @Override
    public String name() {
      return "broken";
    }

    @Override
    public boolean offers(Primitive primitive) {
      return true;
    }
  }

  @Test
  void theUnbrokenJdkPassesEverything() {
    for (Primitive p : Primitive.values()) {
      assertTrue(KnownAnswers.pass(p, new Delegating()), p.toString());
    }
  }

  private static final Primitive[] SIGNATURES = {
    Primitive.ED25519, Primitive.ECDSA_P256, Primitive.ECDSA_SECP256K1, Primitive.RSA_SHA256
  };

  @Test
  void aSignerThatFlipsABitFails() {
    CryptoBackend broken = new Delegating() {
      @Override
      public Signer newSigner(Primitive signature, KeySpec privateKey) throws GeneralSecurityException {
        Signer real = JDK.newSigner(signature, privateKey);
        return message -> {
          byte[] out = real.sign(message);
          out[out.length - 1] ^= 0x10;
          return out;
        };
      }
    };
    for (Primitive p : SIGNATURES) {
      assertFalse(KnownAnswers.pass(p, broken), p.toString());
    }
  }

  /** The JDK's Ed25519 alone checks the cofactorless equation: without the seam's rule it fails. */
  @Test
  void anEd25519VerifierWithoutTheCofactoredRuleFails() {
    CryptoBackend cofactorless = new Delegating() {
      @Override
      public boolean verify(Primitive signature, KeySpec publicKey, byte[] message, byte[] sig)
          throws GeneralSecurityException {
        byte[] encoded = ((Ed25519KeySpecs.Public) publicKey).encoded();
        byte[] info = java.util.Arrays.copyOf(
            java.util.HexFormat.of().parseHex("302a300506032b6570032100"), 44);
        System.arraycopy(encoded, 0, info, 12, 32);
        java.security.Signature jdk = java.security.Signature.getInstance("Ed25519");
        jdk.initVerify(java.security.KeyFactory.getInstance("Ed25519")
            .generatePublic(new java.security.spec.X509EncodedKeySpec(info)));
        jdk.update(message);
        return jdk.verify(sig);
      }
    };
    assertFalse(KnownAnswers.pass(Primitive.ED25519, cofactorless));
    assertTrue(KnownAnswers.pass(Primitive.ED25519, new Delegating()));
  }

  @Test
  void aVerifierThatAcceptsAnythingFails() {
    CryptoBackend broken = new Delegating() {
      @Override
      public boolean verify(Primitive signature, KeySpec publicKey, byte[] message, byte[] sig) {
        return true;
      }
    };
    for (Primitive p : SIGNATURES) {
      assertFalse(KnownAnswers.pass(p, broken), p.toString());
    }
  }

  @Test
  void aVerifierThatRefusesEverythingOrASignerThatThrowsFails() {
    CryptoBackend refusing = new Delegating() {
      @Override
      public boolean verify(Primitive signature, KeySpec publicKey, byte[] message, byte[] sig) {
        return false;
      }
    };
    CryptoBackend throwing = new Delegating() {
      @Override
      public Signer newSigner(Primitive signature, KeySpec privateKey) {
        return message -> {
          throw new IllegalStateException("a provider failing");
        };
      }
    };
    for (Primitive p : SIGNATURES) {
      assertFalse(KnownAnswers.pass(p, refusing), p.toString());
      assertFalse(KnownAnswers.pass(p, throwing), p.toString());
    }
  }

  @Test
  void anAeadThatIgnoresTheTagFails() {
    CryptoBackend broken = new Delegating() {
      @Override
      public AeadCipher newAead(CipherAlgorithm cipher, byte[] key) throws GeneralSecurityException {
        return new ForwardingAead(JDK.newAead(cipher, key)) {
          @Override
          public void open(byte[] nonce, ByteBuffer in, ByteBuffer out) {
            try {
              real.open(nonce, in, out);
            } catch (GeneralSecurityException e) {
              // swallowed: this AEAD does not authenticate
            }
          }
        };
      }
    };
    assertFalse(KnownAnswers.pass(Primitive.AES_GCM, broken));
    assertFalse(KnownAnswers.pass(Primitive.CHACHA20_POLY1305, broken));
  }

  @Test
  void anAeadWithTheWrongKeySizeFails() {
    CryptoBackend broken = new Delegating() {
      @Override
      public AeadCipher newAead(CipherAlgorithm cipher, byte[] key) throws GeneralSecurityException {
        // AES-256-GCM run as AES-128 on half the key
        return cipher == CipherAlgorithm.AES_256_GCM
            ? JDK.newAead(CipherAlgorithm.AES_128_GCM, java.util.Arrays.copyOf(key, 16))
            : JDK.newAead(cipher, key);
      }
    };
    assertFalse(KnownAnswers.pass(Primitive.AES_GCM, broken));
  }

  @Test
  void aCtrThatHoldsBackPartialBlocksFails() {
    // Bouncy Castle's JCA AES/CTR, which releases a trailing partial block only on the next call.
    CryptoBackend broken = new Delegating() {
      @Override
      public Cipher newCtr(CipherAlgorithm cipher, byte[] key, byte[] iv)
          throws GeneralSecurityException {
        Cipher c = Cipher.getInstance("AES/CTR/NoPadding", new BouncyCastleProvider());
        c.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "AES"), new IvParameterSpec(iv));
        return c;
      }
    };
    assertFalse(KnownAnswers.pass(Primitive.AES_CTR, broken));
  }

  @Test
  void aCtrWhoseCounterCarriesOnlyWithinTheLow64BitsFails() {
    // NIST's F.5 vectors never carry past the low byte; only the carry check sees this fault.
    CryptoBackend broken = new Delegating() {
      @Override
      public Cipher newCtr(CipherAlgorithm cipher, byte[] key, byte[] iv)
          throws GeneralSecurityException {
        return Ctr64Cipher.of(key, iv);
      }
    };
    assertFalse(KnownAnswers.pass(Primitive.AES_CTR, broken));
  }

  @Test
  void aCtrThatMiscountsWhatItWroteFails() {
    // Every byte is right; only the count a frame sealer relies on is one short.
    CryptoBackend broken = new Delegating() {
      @Override
      public Cipher newCtr(CipherAlgorithm cipher, byte[] key, byte[] iv)
          throws GeneralSecurityException {
        return MiscountingCtr.around(JDK.newCtr(cipher, key, iv));
      }
    };
    assertFalse(KnownAnswers.pass(Primitive.AES_CTR, broken));
  }

  @Test
  void theMiscountingCtrWritesTheRightBytes() throws Exception {
    byte[] key = new byte[16];
    byte[] iv = new byte[16];
    byte[] expected = JDK.newCtr(CipherAlgorithm.AES_128_CTR, key, iv).update(new byte[40]);
    byte[] out = new byte[40];
    Cipher c = MiscountingCtr.around(JDK.newCtr(CipherAlgorithm.AES_128_CTR, key, iv));
    assertEquals(39, c.update(new byte[40], 0, 40, out, 0));
    assertArrayEquals(expected, out);
  }

  @Test
  void theFaulty64BitCounterIsRightUntilItsCarry() throws Exception {
    byte[] key = new byte[16];
    byte[] iv = java.util.HexFormat.of().parseHex("f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff");
    byte[] expected = JDK.newCtr(CipherAlgorithm.AES_128_CTR, key, iv).update(new byte[1000]);
    assertArrayEquals(expected, Ctr64Cipher.of(key, iv).update(new byte[1000]));
  }

  @Test
  void anHmacWithTheWrongHashFails() {
    CryptoBackend broken = new Delegating() {
      @Override
      public Mac newHmac(HashAlgorithm hash, byte[] key) throws GeneralSecurityException {
        Mac mac = Mac.getInstance("HmacSHA384");
        mac.init(new SecretKeySpec(key, "HmacSHA384"));
        return mac;
      }
    };
    assertFalse(KnownAnswers.pass(Primitive.HMAC_SHA256, broken));
    assertFalse(KnownAnswers.pass(Primitive.HMAC_SHA512, broken));
  }

  @Test
  void anEcdhWithAWrongSecretFails() {
    CryptoBackend broken = wrappingKnownKeyPairs(real -> new Wrapped(real) {
      @Override
      public byte[] agree(byte[] remote) throws SecioException {
        byte[] s = real.agree(remote);
        s[s.length - 1] ^= 1;
        return s;
      }
    });
    assertEveryExchangeFails(broken);
  }

  @Test
  void anExchangeThatIsWrongButConsistentEverywhereFails() {
    // Every secret, from known and generated keys alike, is off by one bit: the two sides of any
    // exchange still agree, so only the published answer can tell.
    CryptoBackend broken = wrappingEveryKeyPair(real -> new Wrapped(real) {
      @Override
      public byte[] agree(byte[] remote) throws SecioException {
        byte[] s = real.agree(remote);
        s[0] ^= 1;
        return s;
      }
    });
    assertEveryExchangeFails(broken);
  }

  @Test
  void anX25519ThatRefusesTheZeroPointForAnotherReasonFails() {
    CryptoBackend broken = wrappingKnownKeyPairs(real -> new Wrapped(real) {
      @Override
      public byte[] agree(byte[] remote) throws SecioException {
        if (isZero(remote)) {
          throw new SecioException(SecioException.Reason.MALFORMED_MESSAGE, "zero");
        }
        return real.agree(remote);
      }
    });
    assertFalse(KnownAnswers.pass(Primitive.X25519, broken));
  }

  @Test
  void anX25519ThatAcceptsTheZeroPointFails() {
    CryptoBackend broken = wrappingKnownKeyPairs(real -> new Wrapped(real) {
      @Override
      public byte[] agree(byte[] remote) throws SecioException {
        return isZero(remote) ? new byte[32] : real.agree(remote);
      }
    });
    assertFalse(KnownAnswers.pass(Primitive.X25519, broken));
  }

  @Test
  void aGeneratorWhosePublicKeyIsNotItsPrivateKeysFails() {
    // Known-answer pairs stay right; only generated keys come with another key's public half.
    CryptoBackend broken = new Delegating() {
      @Override
      public EphemeralKeyPair generateEphemeral(ExchangeAlgorithm exchange, SecureRandom random)
          throws GeneralSecurityException {
        EphemeralKeyPair real = JDK.generateEphemeral(exchange, random);
        byte[] other = JDK.generateEphemeral(exchange, random).publicKey();
        return new Wrapped(real) {
          @Override
          public byte[] publicKey() {
            return other.clone();
          }
        };
      }
    };
    assertEveryExchangeFails(broken);
  }

  @Test
  void aBackendThatThrowsFailsWithoutThrowing() {
    CryptoBackend throwing = new Delegating() {
      @Override
      public Mac newHmac(HashAlgorithm hash, byte[] key) {
        throw new UnsatisfiedLinkError("no natives");
      }

      @Override
      public AeadCipher newAead(CipherAlgorithm cipher, byte[] key) throws GeneralSecurityException {
        throw new AEADBadTagException("surprise");
      }
    };
    assertFalse(KnownAnswers.pass(Primitive.HMAC_SHA256, throwing));
    assertFalse(KnownAnswers.pass(Primitive.AES_GCM, throwing));
  }

  @Test
  void anAeadThatSealsWithoutAdvancingTheOutputFails() {
    // The bytes are right, but a frame sealer relies on the position moving past them.
    CryptoBackend broken = aeadWrapping((real, nonce, in, out, sealing) -> {
      if (sealing) {
        real.seal(nonce, in, out.duplicate());
      } else {
        real.open(nonce, in, out);
      }
    });
    assertFalse(KnownAnswers.pass(Primitive.AES_GCM, broken));
  }

  @Test
  void anAeadThatOpensWithoutAdvancingTheOutputFails() {
    CryptoBackend broken = aeadWrapping((real, nonce, in, out, sealing) -> {
      if (sealing) {
        real.seal(nonce, in, out);
      } else {
        real.open(nonce, in, out.duplicate());
      }
    });
    assertFalse(KnownAnswers.pass(Primitive.CHACHA20_POLY1305, broken));
  }

  @Test
  void anAeadWrongInOneDirectionOnlyFails() {
    // Seals wrong bytes but opens right, and the reverse: each half of the answer is checked.
    assertFalse(KnownAnswers.pass(Primitive.AES_GCM, flippingTheFirstOutputByte(true)));
    assertFalse(KnownAnswers.pass(Primitive.CHACHA20_POLY1305, flippingTheFirstOutputByte(false)));
  }

  private static CryptoBackend flippingTheFirstOutputByte(boolean whenSealing) {
    return aeadWrapping((real, nonce, in, out, sealing) -> {
      int start = out.position();
      if (sealing) {
        real.seal(nonce, in, out);
      } else {
        real.open(nonce, in, out);
      }
      if (sealing == whenSealing) {
        out.put(start, (byte) (out.get(start) ^ 1));
      }
    });
  }

  /** One AEAD call, {@code real} being the JDK's. */
  private interface AeadCall {
    void run(AeadCipher real, byte[] nonce, ByteBuffer in, ByteBuffer out, boolean sealing)
        throws GeneralSecurityException;
  }

  private static CryptoBackend aeadWrapping(AeadCall call) {
    return new Delegating() {
      @Override
      public AeadCipher newAead(CipherAlgorithm cipher, byte[] key) throws GeneralSecurityException {
        return new ForwardingAead(JDK.newAead(cipher, key)) {
          @Override
          public void seal(byte[] nonce, ByteBuffer plaintext, ByteBuffer out)
              throws GeneralSecurityException {
            call.run(real, nonce, plaintext, out, true);
          }

          @Override
          public void open(byte[] nonce, ByteBuffer in, ByteBuffer out)
              throws GeneralSecurityException {
            call.run(real, nonce, in, out, false);
          }
        };
      }
    };
  }

  @Test
  void aCtrThatUsesHalfOfAnAes256KeyFails() {
    // The counter checks run AES-128 only; the AES-256 vector alone sees this.
    CryptoBackend broken = new Delegating() {
      @Override
      public Cipher newCtr(CipherAlgorithm cipher, byte[] key, byte[] iv)
          throws GeneralSecurityException {
        return JDK.newCtr(CipherAlgorithm.AES_128_CTR, java.util.Arrays.copyOf(key, 16), iv);
      }
    };
    assertFalse(KnownAnswers.pass(Primitive.AES_CTR, broken));
  }

  @Test
  void eachHmacIsCheckedWithItsOwnHash() {
    CryptoBackend broken = new Delegating() {
      @Override
      public Mac newHmac(HashAlgorithm hash, byte[] key) throws GeneralSecurityException {
        if (hash == HashAlgorithm.SHA512) {
          return JDK.newHmac(hash, key);
        }
        Mac mac = Mac.getInstance("HmacSHA384");
        mac.init(new SecretKeySpec(key, "HmacSHA384"));
        return mac;
      }
    };
    assertFalse(KnownAnswers.pass(Primitive.HMAC_SHA256, broken));
    assertTrue(KnownAnswers.pass(Primitive.HMAC_SHA512, broken));
  }

  @Test
  void everyKeyPairASelfTestMakesIsDestroyed() {
    java.util.List<boolean[]> destroyed = new java.util.ArrayList<>();
    CryptoBackend recording = wrappingEveryKeyPair(real -> {
      boolean[] flag = new boolean[1];
      destroyed.add(flag);
      return new Wrapped(real) {
        @Override
        public void destroy() {
          flag[0] = true;
          super.destroy();
        }
      };
    });
    for (Primitive p : EXCHANGES) {
      destroyed.clear();
      assertTrue(KnownAnswers.pass(p, recording), p.toString());
      assertEquals(2, destroyed.size(), p + ": a known pair and a generated one");
      for (boolean[] flag : destroyed) {
        assertTrue(flag[0], p + ": a key pair left undestroyed");
      }
    }
  }

  private static void assertEveryExchangeFails(CryptoBackend broken) {
    for (Primitive p : EXCHANGES) {
      assertFalse(KnownAnswers.pass(p, broken), p.toString());
    }
  }

  /** The JDK's primitives; each pair made from a known private key goes through {@code wrap}. */
  private static CryptoBackend wrappingKnownKeyPairs(UnaryOperator<EphemeralKeyPair> wrap) {
    return new Delegating() {
      @Override
      public EphemeralKeyPair ephemeralFromPrivate(ExchangeAlgorithm exchange, byte[] privateKey)
          throws GeneralSecurityException {
        return wrap.apply(JDK.ephemeralFromPrivate(exchange, privateKey));
      }
    };
  }

  /** The JDK's primitives, with every key pair, known or generated, passed through {@code wrap}. */
  private static CryptoBackend wrappingEveryKeyPair(UnaryOperator<EphemeralKeyPair> wrap) {
    return new Delegating() {
      @Override
      public EphemeralKeyPair generateEphemeral(ExchangeAlgorithm exchange, SecureRandom random)
          throws GeneralSecurityException {
        return wrap.apply(JDK.generateEphemeral(exchange, random));
      }

      @Override
      public EphemeralKeyPair ephemeralFromPrivate(ExchangeAlgorithm exchange, byte[] privateKey)
          throws GeneralSecurityException {
        return wrap.apply(JDK.ephemeralFromPrivate(exchange, privateKey));
      }
    };
  }

  private static boolean isZero(byte[] b) {
    for (byte x : b) {
      if (x != 0) {
        return false;
      }
    }
    return true;
  }

  private static class Wrapped extends ForwardingEphemeralKeyPair {
    Wrapped(EphemeralKeyPair real) {
      super(real);
    }
  }
}
