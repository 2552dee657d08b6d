package io.secio.crypto;

import static io.secio.crypto.AeadWycheproofTest.allocate;
import static io.secio.crypto.AeadWycheproofTest.buffer;
import static io.secio.crypto.AeadWycheproofTest.contents;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.secio.protocol.CipherAlgorithm;
import io.secio.protocol.ExchangeAlgorithm;
import io.secio.protocol.HashAlgorithm;
import java.nio.ByteBuffer;
import java.security.InvalidKeyException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import javax.crypto.AEADBadTagException;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * {@link AeadCipher} on every backend: round trips on heap and direct buffers at awkward positions,
 * a flipped bit anywhere refused with {@link AEADBadTagException} and no plaintext released, misuse
 * refused (on the AEADs and the other primitives of the backend alike), and every pair of backends
 * agreeing byte for byte.
 */
class AeadCipherTest {
  private static final long SEED = 0x5EC10AEADL;
  private static final int[] LENGTHS = {0, 1, 15, 16, 17, 255, 4096, 70_000};
  private static final int OUT_OFFSET = 4; // where a frame's body starts after its length header
  private static final byte PLAINTEXT_BYTE = 0x5c;
  private static final byte UNTOUCHED = (byte) 0xaa;
  private static final int BEYOND = 40; // more than a tag of room after the plaintext

  private static final CipherAlgorithm[] AEADS = {
    CipherAlgorithm.AES_128_GCM, CipherAlgorithm.AES_256_GCM, CipherAlgorithm.CHACHA20_POLY1305
  };

  @TestFactory
  Stream<DynamicTest> roundTrips() {
    List<DynamicTest> tests = new ArrayList<>();
    for (CipherAlgorithm cipher : AEADS) {
      for (JcaBackend backend : TestBackends.offering(Primitive.of(cipher))) {
        for (boolean direct : new boolean[] {false, true}) {
          String name = backend.name() + " " + cipher.wireName() + (direct ? " direct" : " heap");
          tests.add(TestBackends.test(name, () -> roundTrip(backend, cipher, direct)));
        }
      }
    }
    return tests.stream();
  }

  /** A sealer and an opener with one key, frames of every length in order, counter nonces. */
  private static void roundTrip(JcaBackend backend, CipherAlgorithm cipher, boolean direct)
      throws Exception {
    Random random = new Random(SEED);
    byte[] key = bytes(random, cipher.keySizeInBytes());
    AeadCipher sealer = backend.newAead(cipher, key);
    AeadCipher opener = backend.newAead(cipher, key);
    assertEquals(CipherAlgorithm.TAG_SIZE_IN_BYTES, sealer.tagSizeInBytes());
    byte[] nonce = new byte[12];
    for (int length : LENGTHS) {
      nonce[0]++;
      byte[] plaintext = bytes(random, length);
      ByteBuffer in = allocate(length + 8, direct);
      in.position(3);
      in.put(plaintext).flip().position(3);
      ByteBuffer out = allocate(OUT_OFFSET + length + 16 + 5, direct);
      out.position(OUT_OFFSET);
      sealer.seal(nonce.clone(), in, out);
      assertEquals(in.limit(), in.position(), "plaintext consumed");
      assertEquals(OUT_OFFSET + length + 16, out.position(), "ciphertext and tag written");

      ByteBuffer sealed = out.duplicate().flip().position(OUT_OFFSET);
      ByteBuffer opened = allocate(length + 2, direct);
      opened.position(2);
      opener.open(nonce.clone(), sealed, opened);
      assertEquals(sealed.limit(), sealed.position(), "ciphertext consumed");
      assertEquals(2 + length, opened.position(), "plaintext written");
      assertArrayEquals(plaintext,
          Arrays.copyOfRange(contents(opened), 2, 2 + length), "length " + length);
    }
  }

  @TestFactory
  Stream<DynamicTest> tamperedFramesAreRefused() {
    List<DynamicTest> tests = new ArrayList<>();
    for (CipherAlgorithm cipher : AEADS) {
      for (JcaBackend backend : TestBackends.offering(Primitive.of(cipher))) {
        for (boolean direct : new boolean[] {false, true}) {
          String name = backend.name() + " " + cipher.wireName() + (direct ? " direct" : " heap");
          tests.add(TestBackends.test(name, () -> tamper(backend, cipher, direct)));
        }
      }
    }
    return tests.stream();
  }

  private static void tamper(JcaBackend backend, CipherAlgorithm cipher, boolean direct)
      throws Exception {
    byte[] key = bytes(new Random(SEED), cipher.keySizeInBytes());
    byte[] nonce = {1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    byte[] plaintext = new byte[100];
    Arrays.fill(plaintext, PLAINTEXT_BYTE);
    ByteBuffer sealedOut = allocate(plaintext.length + 16, direct);
    backend.newAead(cipher, key).seal(nonce, buffer(plaintext, direct), sealedOut);
    byte[] sealed = contents(sealedOut);

    AeadCipher opener = backend.newAead(cipher, key);
    for (int bit : new int[] {0, 7, 8 * 50 + 3, 8 * 99 + 7, 8 * 100, 8 * 107 + 1, 8 * 115 + 7}) {
      byte[] bad = sealed.clone();
      bad[bit / 8] ^= (byte) (1 << (bit % 8));
      // Room beyond the plaintext holds the caller's bytes, which a failed open leaves alone; only
      // Conscrypt, in a direct buffer, clears all the room it was given.
      ByteBuffer out = allocate(plaintext.length + BEYOND, direct);
      for (int i = 0; i < out.capacity(); i++) {
        out.put(i, UNTOUCHED);
      }
      assertThrows(AEADBadTagException.class, () -> opener.open(nonce, buffer(bad, direct), out),
          "bit " + bit);
      assertEquals(0, out.position(), "no output claimed after a bad tag");
      for (int i = 0; i < plaintext.length; i++) {
        byte b = out.get(i);
        assertTrue(b == UNTOUCHED || b == 0, "plaintext released at " + i + " for bit " + bit);
      }
      boolean clearsRoom = direct && backend.name().equals(JcaProfile.CONSCRYPT);
      for (int i = plaintext.length; i < out.capacity(); i++) {
        byte b = out.get(i);
        assertTrue(b == UNTOUCHED || (clearsRoom && b == 0),
            "byte " + i + " beyond the plaintext changed, bit " + bit);
      }
    }
    // The same opener still opens the genuine frame under the same nonce.
    ByteBuffer opened = allocate(plaintext.length, direct);
    opener.open(nonce, buffer(sealed, direct), opened);
    assertArrayEquals(plaintext, contents(opened));
    // Shorter than a tag: nothing to authenticate.
    assertThrows(AEADBadTagException.class,
        () -> opener.open(nonce, buffer(new byte[15], direct), allocate(16, direct)));
  }

  @TestFactory
  Stream<DynamicTest> backendsAgree() {
    List<DynamicTest> tests = new ArrayList<>();
    for (CipherAlgorithm cipher : AEADS) {
      List<JcaBackend> backends = TestBackends.offering(Primitive.of(cipher));
      for (JcaBackend a : backends) {
        for (JcaBackend b : backends) {
          if (a != b) {
            String name = cipher.wireName() + " sealed on " + a.name() + ", opened on " + b.name();
            tests.add(TestBackends.test(name, () -> agree(a, b, cipher)));
          }
        }
      }
    }
    return tests.stream();
  }

  private static void agree(JcaBackend a, JcaBackend b, CipherAlgorithm cipher) throws Exception {
    Random random = new Random(SEED ^ cipher.ordinal());
    byte[] key = bytes(random, cipher.keySizeInBytes());
    byte[] nonce = bytes(random, 12);
    byte[] plaintext = bytes(random, 1000);
    ByteBuffer fromA = allocate(plaintext.length + 16, false);
    a.newAead(cipher, key).seal(nonce, buffer(plaintext, false), fromA);
    ByteBuffer fromB = allocate(plaintext.length + 16, true);
    b.newAead(cipher, key).seal(nonce, buffer(plaintext, true), fromB);
    assertArrayEquals(contents(fromA), contents(fromB), "same key, nonce, plaintext");
    ByteBuffer opened = allocate(plaintext.length, true);
    b.newAead(cipher, key).open(nonce, buffer(contents(fromA), true), opened);
    assertArrayEquals(plaintext, contents(opened));
  }

  @TestFactory
  Stream<DynamicTest> misuseIsRefused() {
    List<DynamicTest> tests = new ArrayList<>();
    for (JcaBackend backend : TestBackends.loaded()) {
      tests.add(TestBackends.test(backend.name(), () -> {
        byte[] key16 = new byte[16];
        assertThrows(IllegalArgumentException.class,
            () -> backend.newAead(CipherAlgorithm.AES_256_GCM, key16), "key size");
        assertThrows(IllegalArgumentException.class,
            () -> backend.newAead(CipherAlgorithm.AES_128_CTR, key16), "not an AEAD");
        assertThrows(IllegalArgumentException.class,
            () -> backend.newCtr(CipherAlgorithm.AES_128_GCM, key16, new byte[16]), "not CTR");
        assertThrows(IllegalArgumentException.class,
            () -> backend.newCtr(CipherAlgorithm.AES_128_CTR, key16, new byte[12]), "iv size");
        assertThrows(IllegalArgumentException.class,
            () -> backend.newCtr(CipherAlgorithm.AES_128_CTR, key16, null), "no iv");
        assertThrows(IllegalArgumentException.class,
            () -> backend.newCtr(CipherAlgorithm.AES_256_CTR, key16, new byte[16]), "CTR key size");
        assertThrows(IllegalArgumentException.class,
            () -> backend.newCtr(CipherAlgorithm.AES_128_CTR, null, new byte[16]), "no CTR key");
        assertThrows(IllegalArgumentException.class,
            () -> backend.newAead(CipherAlgorithm.AES_128_GCM, null), "no AEAD key");
        assertThrows(IllegalArgumentException.class,
            () -> backend.newHmac(HashAlgorithm.SHA256, new byte[0]), "empty HMAC key");
        assertThrows(IllegalArgumentException.class,
            () -> backend.newHmac(HashAlgorithm.SHA512, null), "no HMAC key");
        assertEquals(32, backend.newHmac(HashAlgorithm.SHA256, new byte[1]).doFinal().length,
            "a one-byte HMAC key is a key");
        for (byte[] x25519 : new byte[][] {null, new byte[31], new byte[33]}) {
          assertThrows(InvalidKeyException.class,
              () -> backend.ephemeralFromPrivate(ExchangeAlgorithm.X25519, x25519),
              "X25519 key size");
        }
        AeadCipher aead = backend.newAead(CipherAlgorithm.AES_128_GCM, key16);
        for (byte[] nonce : new byte[][] {null, new byte[11], new byte[13], new byte[16]}) {
          assertThrows(IllegalArgumentException.class,
              () -> aead.seal(nonce, ByteBuffer.allocate(1), ByteBuffer.allocate(17)));
          assertThrows(IllegalArgumentException.class,
              () -> aead.open(nonce, ByteBuffer.allocate(17), ByteBuffer.allocate(1)));
        }
      }));
    }
    return tests.stream();
  }

  private static byte[] bytes(Random random, int length) {
    byte[] b = new byte[length];
    random.nextBytes(b);
    return b;
  }
}
