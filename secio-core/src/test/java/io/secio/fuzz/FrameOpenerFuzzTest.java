package io.secio.fuzz;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.secio.crypto.CryptoBackend;
import io.secio.crypto.Primitive;
import io.secio.frame.FrameOpener;
import io.secio.frame.cipher.DirectionKeys;
import io.secio.frame.cipher.FrameCiphers;
import io.secio.protocol.CipherAlgorithm;
import io.secio.protocol.HashAlgorithm;
import io.secio.protocol.SecioException.Reason;
import io.secio.protocol.SecioException;
import io.secio.testing.TestBackends;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * {@link FrameOpener} of each cipher, on every backend that offers it, against a reference built
 * from the JDK's SunJCE alone (docs/PROTOCOL.md section 10). A frame is an honest next frame, fuzzed bytes, an
 * honest frame with a byte changed, or a replay of the last honest frame. The opener must agree with
 * the reference on every frame: the same plaintext, or a {@link SecioException} with reason {@code
 * FRAME_TOO_SHORT} (body shorter than the MAC or tag) or {@code AUTHENTICATION_FAILED}; and once it
 * failed, every later frame fails, honest or not. Keys are fixed bytes.
 */
class FrameOpenerFuzzTest {
  static final int MAX_FRAMES = 24;
  static final int MAX_BODY = 300;
  static final int HONEST = 0;
  static final int RAW = 1;
  static final int TAMPERED = 2;
  static final int REPLAY = 3;
  static final byte[] IV = counting(16, 0x00);
  /** An initial counter eight blocks before 2^128: the keystream carries through all 128 bits. */
  static final byte[] IV_NEAR_WRAP = nearWrap();
  static final byte[] CIPHER_KEY = counting(32, 0x20);
  static final byte[] MAC_KEY = counting(DirectionKeys.MAC_KEY_SIZE_IN_BYTES, 0x60);

  private static final Map<CipherAlgorithm, List<CryptoBackend>> BACKENDS =
      new EnumMap<>(CipherAlgorithm.class);

  @FuzzTest
  void aes128Gcm(FuzzedDataProvider data) throws Exception {
    check(CipherAlgorithm.AES_128_GCM, data);
  }

  @FuzzTest
  void aes256Gcm(FuzzedDataProvider data) throws Exception {
    check(CipherAlgorithm.AES_256_GCM, data);
  }

  @FuzzTest
  void chacha20Poly1305(FuzzedDataProvider data) throws Exception {
    check(CipherAlgorithm.CHACHA20_POLY1305, data);
  }

  @FuzzTest
  void aes128Ctr(FuzzedDataProvider data) throws Exception {
    check(CipherAlgorithm.AES_128_CTR, data);
  }

  @FuzzTest
  void aes256Ctr(FuzzedDataProvider data) throws Exception {
    check(CipherAlgorithm.AES_256_CTR, data);
  }

  static void check(CipherAlgorithm cipher, FuzzedDataProvider data) throws Exception {
    List<CryptoBackend> backends = backends(cipher);
    // Always one byte, whatever the number of backends here, so that saved inputs keep their meaning.
    CryptoBackend backend = backends.get(data.consumeInt(0, 2) % backends.size());
    HashAlgorithm hash = data.consumeBoolean() ? HashAlgorithm.SHA256 : HashAlgorithm.SHA512;
    byte[] iv = data.consumeBoolean() ? IV : IV_NEAR_WRAP;
    DirectionKeys keys = new DirectionKeys(
        Arrays.copyOf(iv, cipher.ivSizeInBytes()),
        Arrays.copyOf(CIPHER_KEY, cipher.keySizeInBytes()),
        MAC_KEY);
    FrameOpener opener = FrameCiphers.opener(backend, cipher, hash, keys);
    Reference reference = new Reference(cipher, hash, keys);
    assertEquals(reference.overhead(), opener.overhead(), "overhead");
    boolean dead = false;
    byte[] lastHonest = null;
    for (int frame = 0; frame < MAX_FRAMES && data.remainingBytes() > 0; frame++) {
      int kind = data.consumeInt(HONEST, REPLAY);
      boolean viaBuffers = data.consumeBoolean();
      boolean direct = data.consumeBoolean();
      byte[] plaintext = null;
      byte[] body;
      switch (kind) {
        case HONEST:
          plaintext = data.consumeBytes(data.consumeInt(0, MAX_BODY));
          body = reference.sealNext(plaintext);
          lastHonest = body.clone();
          break;
        case TAMPERED:
          body = reference.sealNext(data.consumeBytes(data.consumeInt(0, MAX_BODY)));
          body[data.consumeInt(0, body.length - 1)] ^= (byte) data.consumeInt(1, 255);
          break;
        case REPLAY:
          body = lastHonest != null ? lastHonest.clone() : new byte[0];
          break;
        default:
          body = data.consumeBytes(data.consumeInt(0, MAX_BODY));
      }
      byte[] expected = dead ? null : reference.open(body);
      if (plaintext != null && !dead) {
        assertArrayEquals(plaintext, expected, "reference round trip");
      }
      byte[] opened;
      try {
        opened = viaBuffers ? openBuffers(opener, body, direct) : opener.open(body.clone());
      } catch (SecioException e) {
        if (expected != null) {
          throw new AssertionError("frame " + frame + " (kind " + kind + ", " + body.length
              + " bytes, " + backend.name() + ") is authentic but the opener refused it", e);
        }
        Reason want = !dead && body.length < opener.overhead()
            ? Reason.FRAME_TOO_SHORT : Reason.AUTHENTICATION_FAILED;
        if (!dead) {
          assertEquals(want, e.reason(), "reason for a " + body.length + "-byte body");
        } else {
          assertTrue(e.reason() == Reason.FRAME_TOO_SHORT || e.reason() == Reason.AUTHENTICATION_FAILED,
              "reason after a failure: " + e.reason());
        }
        dead = true;
        continue;
      }
      if (dead) {
        fail("frame " + frame + " opened after an earlier frame failed");
      }
      if (expected == null) {
        fail("frame " + frame + " (kind " + kind + ", " + body.length + " bytes, " + backend.name()
            + ") is not authentic but opened");
      }
      assertArrayEquals(expected, opened, "plaintext of frame " + frame + " on " + backend.name());
    }
  }

  private static byte[] openBuffers(FrameOpener opener, byte[] body, boolean direct)
      throws SecioException {
    // A body in the middle of a larger buffer, as a decoder hands it over.
    ByteBuffer in = direct ? ByteBuffer.allocateDirect(body.length + 7) : ByteBuffer.allocate(body.length + 7);
    in.position(3);
    in.put(body);
    in.position(3).limit(3 + body.length);
    int size = Math.max(0, body.length - opener.overhead());
    ByteBuffer out = direct ? ByteBuffer.allocateDirect(size) : ByteBuffer.allocate(size);
    opener.open(in, out);
    assertEquals(0, in.remaining(), "body not consumed");
    assertEquals(size, out.position(), "plaintext length");
    byte[] plaintext = new byte[size];
    out.flip().get(plaintext);
    return plaintext;
  }

  private static synchronized List<CryptoBackend> backends(CipherAlgorithm cipher) {
    return BACKENDS.computeIfAbsent(cipher, c -> {
      List<CryptoBackend> offering = TestBackends.offering(Primitive.of(c));
      if (offering.isEmpty()) {
        throw new IllegalStateException("no backend offers " + c);
      }
      return offering;
    });
  }

  private static byte[] nearWrap() {
    byte[] b = new byte[16];
    Arrays.fill(b, (byte) 0xff);
    b[15] = (byte) 0xf8;
    return b;
  }

  private static byte[] counting(int length, int start) {
    byte[] b = new byte[length];
    for (int i = 0; i < length; i++) {
      b[i] = (byte) (start + i);
    }
    return b;
  }

  /**
   * What the opener should do, from SunJCE alone: the next frame's nonce or keystream offset, an
   * honest next frame, and the outcome of opening any body.
   */
  static final class Reference {
    private static final String PROVIDER = "SunJCE";
    private final CipherAlgorithm cipher;
    private final HashAlgorithm hash;
    private final byte[] key;
    private final byte[] iv;
    private final byte[] macKey;
    /** AEAD: nonces used so far. CTR: keystream bytes used so far. */
    private long used;

    Reference(CipherAlgorithm cipher, HashAlgorithm hash, DirectionKeys keys) {
      this.cipher = cipher;
      this.hash = hash;
      this.key = keys.cipherKey();
      this.iv = keys.iv();
      this.macKey = keys.macKey();
    }

    int overhead() {
      return cipher.isAead() ? CipherAlgorithm.TAG_SIZE_IN_BYTES : hash.macSizeInBytes();
    }

    /** The body the opener expects next for {@code plaintext}. */
    byte[] sealNext(byte[] plaintext) throws GeneralSecurityException {
      if (cipher.isAead()) {
        return aead(Cipher.ENCRYPT_MODE, used + 1).doFinal(plaintext);
      }
      byte[] ciphertext = ctrAt(used).update(plaintext);
      ciphertext = ciphertext == null ? new byte[0] : ciphertext;
      byte[] body = Arrays.copyOf(ciphertext, ciphertext.length + overhead());
      System.arraycopy(mac(ciphertext), 0, body, ciphertext.length, overhead());
      return body;
    }

    /** The plaintext of {@code body} as the next frame, or null if it must be refused. */
    byte[] open(byte[] body) throws GeneralSecurityException {
      if (body.length < overhead()) {
        return null;
      }
      if (cipher.isAead()) {
        used++;
        try {
          return aead(Cipher.DECRYPT_MODE, used).doFinal(body);
        } catch (AEADBadTagException e) {
          return null;
        }
      }
      byte[] ciphertext = Arrays.copyOf(body, body.length - overhead());
      byte[] tag = Arrays.copyOfRange(body, ciphertext.length, body.length);
      if (!MessageDigest.isEqual(mac(ciphertext), tag)) {
        return null;
      }
      byte[] plaintext = ctrAt(used).update(ciphertext);
      used += ciphertext.length;
      return plaintext == null ? new byte[0] : plaintext;
    }

    private Cipher aead(int mode, long counter) throws GeneralSecurityException {
      // docs/PROTOCOL.md's nonce (section 10): a little-endian counter over 12 bytes, 1 for the first frame.
      byte[] nonce = new byte[12];
      for (int i = 0; i < 8; i++) {
        nonce[i] = (byte) (counter >>> (8 * i));
      }
      Cipher c;
      if (cipher == CipherAlgorithm.CHACHA20_POLY1305) {
        c = Cipher.getInstance("ChaCha20-Poly1305", PROVIDER);
        c.init(mode, new SecretKeySpec(key, "ChaCha20"), new IvParameterSpec(nonce));
      } else {
        c = Cipher.getInstance("AES/GCM/NoPadding", PROVIDER);
        c.init(mode, new SecretKeySpec(key, "AES"), new GCMParameterSpec(128, nonce));
      }
      return c;
    }

    /** AES-CTR positioned {@code offset} bytes into the stream that starts at the iv. */
    private Cipher ctrAt(long offset) throws GeneralSecurityException {
      BigInteger counter = new BigInteger(1, iv).add(BigInteger.valueOf(offset / 16))
          .mod(BigInteger.ONE.shiftLeft(128));
      byte[] block = counter.toByteArray();
      byte[] start = new byte[16];
      int n = Math.min(16, block.length);
      System.arraycopy(block, block.length - n, start, 16 - n, n);
      Cipher c = Cipher.getInstance("AES/CTR/NoPadding", PROVIDER);
      c.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "AES"), new IvParameterSpec(start));
      c.update(new byte[(int) (offset % 16)]);
      return c;
    }

    private byte[] mac(byte[] ciphertext) throws GeneralSecurityException {
      Mac m = Mac.getInstance(hash.jcaHmacName(), PROVIDER);
      m.init(new SecretKeySpec(macKey, hash.jcaHmacName()));
      return m.doFinal(ciphertext);
    }
  }
}
